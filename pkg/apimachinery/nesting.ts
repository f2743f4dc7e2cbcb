// How deep a request body nests, measured before it is parsed. The YAML composer, JSON.stringify and the walkers of
// validation, pruning and managed fields recurse once per level; a body nested a few thousand levels deep exhausts
// the stack, and near its end V8 may abort the whole process (a RegExp compiled there fails with "process out of
// memory") rather than throw. Upstream's decoders stop at 10,000 levels; no object needs more than MAX_DEPTH.
//
//   exceedsDepth(text: string, yaml: boolean): boolean
import { Parser } from 'yaml';
import { CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET, QUOTE, stringEnd } from './json-text.js';

export const MAX_DEPTH = 500;

/** JSON: brackets outside strings, in one pass. */
function jsonExceeds(text: string): boolean {
  // valid JSON that deep closes what it opens: a shorter text is not, and JSON.parse refuses it without recursing
  if (text.length < 2 * (MAX_DEPTH + 1)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > MAX_DEPTH) return true;
    } else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && depth > 0) {
      depth--;
    }
  }
  return false;
}

interface CstNode { type?: string; items?: { key?: unknown; value?: unknown }[]; value?: unknown }

/** YAML: the collections of its token tree (which the lexer builds without recursion), walked with a stack. */
function yamlExceeds(text: string): boolean {
  const stack: [unknown, number][] = [];
  for (const token of new Parser().parse(text)) stack.push([(token as CstNode).value, 0]);
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (!node || typeof node !== 'object') continue;
    const n = node as CstNode;
    const d = n.type === 'block-map' || n.type === 'block-seq' || n.type === 'flow-collection' ? depth + 1 : depth;
    if (d > MAX_DEPTH) return true;
    for (const item of n.items ?? []) stack.push([item.key, d], [item.value, d]);
  }
  return false;
}

export const exceedsDepth = (text: string, yaml: boolean): boolean => (yaml ? yamlExceeds(text) : jsonExceeds(text));
