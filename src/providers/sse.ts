/**
 * Server-sent events from a response body, parsed by `eventsource-parser` (partial lines,
 * multi-line data, comments and `event:` fields handled there).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/**
 * Feeds every event of `body` to `onEvent`, in order, until the body ends. Rejects when the body
 * fails (abort, timeout, reset): callers run it inside the transport's attempt.
 */
export const readSse = async (body: AsyncIterable<Uint8Array>, onEvent: (event: EventSourceMessage) => void): Promise<void> => {
  const parser = createParser({ onEvent });
  const decoder = new TextDecoder();
  for await (const chunk of body) parser.feed(decoder.decode(chunk, { stream: true }));
  const rest = decoder.decode();
  if (rest.length > 0) parser.feed(rest);
  parser.reset({ consume: true });
};
