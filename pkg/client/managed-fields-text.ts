// Informers that cache objects without managedFields (client-go's TransformStripManagedFields) need not parse them:
// in a pod they are ~40% of the JSON and most of its small objects. This cuts `"managedFields":[...]` out of a
// watch event's text before JSON.parse, when it is the event object's metadata field; any other shape is left whole
// (the informer's transform then deletes the parsed field as before).

import {
  CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, isJsonSpace, stringEnd,
} from '../apimachinery/json-text.js';

const KEY = '"managedFields":';

/** Whether the string ending at `end` is a key: the next non-blank character is a colon. */
const isKey = (s: string, end: number): boolean => {
  let j = end + 1;
  while (isJsonSpace(s.charCodeAt(j))) j++;
  return s.charCodeAt(j) === COLON;
};

/**
 * Whether the member starting at `at` is a field of the event object's metadata: three containers deep, the last
 * key seen one level up `metadata` and two levels up `object` (a key names the container opened after it).
 */
const inEventMetadata = (s: string, at: number): boolean => {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < at; i++) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(s, i);
      if (end >= at) return false;
      if (depth <= 2 && isKey(s, end)) keys[depth] = s.slice(i + 1, end);
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return depth === 3 && keys[1] === 'object' && keys[2] === 'metadata';
};

/** Index just past the array that opens at `i`, -1 if it does not close. */
const arrayEnd = (s: string, i: number): number => {
  let depth = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(s, i);
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
  }
  return -1;
};

/** A watch event's JSON without its object's metadata.managedFields (the text itself when it has none or another shape). */
export function withoutManagedFields(event: string): string {
  const at = event.indexOf(KEY);
  if (at < 0 || !inEventMetadata(event, at)) return event;
  let open = at + KEY.length;
  while (isJsonSpace(event.charCodeAt(open))) open++;
  if (event.charCodeAt(open) !== OPEN_BRACKET) return event;
  let end = arrayEnd(event, open);
  if (end < 0) return event;
  let start = at;
  let next = end;
  while (isJsonSpace(event.charCodeAt(next))) next++;
  if (event.charCodeAt(next) === COMMA) {
    end = next + 1;
  } else {
    let prev = start - 1;
    while (isJsonSpace(event.charCodeAt(prev))) prev--;
    if (event.charCodeAt(prev) === COMMA) start = prev;
  }
  return event.slice(0, start) + event.slice(end);
}
