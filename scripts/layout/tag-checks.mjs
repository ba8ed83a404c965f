#!/usr/bin/env node
/**
 * The `._tag` codemod (issue 22, "Habits"): outside src/core/, every comparison of an Either's tag
 * by hand becomes the guard of src/core/either.ts, and the guard is imported:
 *
 *   x._tag === 'Left'  → isLeft(x)      x._tag !== 'Left'  → isRight(x)
 *   x._tag === 'Right' → isRight(x)     x._tag !== 'Right' → isLeft(x)
 *
 * (an Either is a Left or a Right, so the negations are the other guard; TypeScript narrows the
 * same through the guards.) Then test/architecture/habits-allow.json's budget of tag checks is set
 * to none, so the habits test forbids `._tag ===` / `._tag !==` outside src/core/ entirely.
 *
 *   node scripts/layout/tag-checks.mjs
 *
 * `x?._tag === 'Left'` becomes `(x !== undefined && isLeft(x))`, `x?._tag !== 'Left'`
 * `(x === undefined || isRight(x))`. Idempotent. Reports, and leaves, what it cannot convert: a
 * comparison with another tag (not an Either: read it through a function of its own).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';

const ROOT = process.cwd();
const EITHER = 'src/core/either.ts';
const ALLOW = 'test/architecture/habits-allow.json';

const walk = (dir) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );

const GUARD = { '===Left': 'isLeft', '!==Left': 'isRight', '===Right': 'isRight', '!==Right': 'isLeft' };

let converted = 0;
let filesChanged = 0;
const left = [];
for (const file of walk('src').filter((f) => !f.startsWith('src/core/'))) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (!/\._tag\s*[!=]==/.test(text)) continue;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  /** The comparisons to replace (none nests in another's operand: a match is not searched further). */
  const edits = [];
  const needed = new Set();
  const visit = (node) => {
    if (
      ts.isBinaryExpression(node) &&
      (node.operatorToken.kind === ts.SyntaxKind.EqualsEqualsEqualsToken || node.operatorToken.kind === ts.SyntaxKind.ExclamationEqualsEqualsToken)
    ) {
      const [access, literal] = ts.isPropertyAccessExpression(node.left) ? [node.left, node.right] : [node.right, node.left];
      if (ts.isPropertyAccessExpression(access) && access.name.text === '_tag' && ts.isStringLiteralLike(literal)) {
        const where = `${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        const guard = GUARD[`${node.operatorToken.getText()}${literal.text}`];
        if (guard === undefined) left.push(`${where}: ${node.getText()} (not an Either's tag)`);
        else {
          // `x?._tag === 'Left'` is false when x is undefined, `x?._tag !== 'Left'` true
          const optional = access.questionDotToken === undefined ? undefined : node.operatorToken.kind === ts.SyntaxKind.EqualsEqualsEqualsToken ? '&&' : '||';
          const p = node.parent;
          const bare = ts.isIfStatement(p) || ts.isParenthesizedExpression(p) || ts.isReturnStatement(p) || (ts.isConditionalExpression(p) && p.condition === node);
          edits.push({ start: node.getStart(), end: node.getEnd(), guard, operand: access.expression, optional, bare });
          needed.add(guard);
          return; // the operand is rewritten with its own edits below
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (edits.length === 0) continue;

  let body = '';
  let at = 0;
  for (const e of edits.sort((a, b) => a.start - b.start)) {
    const x = e.operand.getText();
    const call = `${e.guard}(${x})`;
    const guarded = e.optional === '&&' ? `${x} !== undefined && ${call}` : `${x} === undefined || ${call}`;
    body += text.slice(at, e.start) + (e.optional === undefined ? call : e.bare ? guarded : `(${guarded})`);
    at = e.end;
  }
  body += text.slice(at);
  converted += edits.length;

  // the import of the guards from core/either
  const spec = posix.relative(posix.dirname(file), EITHER).replace(/\.ts$/, '.js');
  const specifier = spec.startsWith('.') ? spec : `./${spec}`;
  const sf2 = ts.createSourceFile(file, body, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const imports = sf2.statements.filter((s) => ts.isImportDeclaration(s));
  const fromEither = imports.find(
    (s) => ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text === specifier && s.importClause !== undefined && !s.importClause.isTypeOnly,
  );
  const named = fromEither?.importClause?.namedBindings;
  const have = new Set(named !== undefined && ts.isNamedImports(named) ? named.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text) : []);
  const missing = [...needed].filter((g) => !have.has(g)).sort();
  if (missing.length > 0) {
    if (named !== undefined && ts.isNamedImports(named)) {
      const last = named.elements[named.elements.length - 1];
      body = `${body.slice(0, last.getEnd())}, ${missing.join(', ')}${body.slice(last.getEnd())}`;
    } else {
      const after = imports.length > 0 ? imports[imports.length - 1].getEnd() : 0;
      const line = `import { ${missing.join(', ')} } from '${specifier}';`;
      body = after === 0 ? `${line}\n${body}` : `${body.slice(0, after)}\n${line}${body.slice(after)}`;
    }
  }
  writeFileSync(join(ROOT, file), body);
  filesChanged++;
}

// the budget: none left
const allow = JSON.parse(readFileSync(join(ROOT, ALLOW), 'utf8'));
if (Object.keys(allow.tagChecks ?? {}).length > 0) {
  writeFileSync(join(ROOT, ALLOW), `${JSON.stringify({ ...allow, tagChecks: {} }, null, 2)}\n`);
}
console.log(`${converted} tag comparisons in ${filesChanged} files → isLeft / isRight; ${ALLOW}: tagChecks emptied`);
for (const l of left) console.log(`LEFT AS IS (convert by hand): ${l}`);
process.exitCode = left.length > 0 ? 1 : 0;
