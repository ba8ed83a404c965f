/**
 * The router of `gramkit serve`: Hono's trie router, with its answers remembered per method and path.
 *
 * Hono's fastest router (`RegExpRouter`) refuses a parameter next to a static sibling
 * (`/api/v1/tools/:id` beside `/api/v1/tools/discover`), so Hono falls back to its trie router,
 * which walks the path on every request. The routes are fixed once the service is built, so the
 * same method and path always match the same handlers and parameters: the answer is kept (Hono
 * only reads it) and a repeated request (a client invoking the same tool) skips the walk. At most
 * `MAX_REMEMBERED` answers are kept; past that the memo starts again empty, so paths a client
 * makes up cost memory only up to that bound.
 */
import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';

const MAX_REMEMBERED = 1024;

export class MemoRouter<T> implements Router<T> {
  readonly name = 'MemoRouter(TrieRouter)';
  private readonly trie = new TrieRouter<T>();
  private readonly answers = new Map<string, Result<T>>();

  add(method: string, path: string, handler: T): void {
    this.answers.clear();
    this.trie.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    const known = this.answers.get(key);
    if (known !== undefined) return known;
    const found = this.trie.match(method, path);
    if (this.answers.size >= MAX_REMEMBERED) this.answers.clear();
    this.answers.set(key, found);
    return found;
  }
}
