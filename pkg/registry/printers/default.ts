// The table of everything without a printer of its own (upstream's DefaultTableConvertor):
// NAME and CREATED AT, the creation time as RFC 3339 in UTC to the second.
import { column, nameColumn, type Printer } from './types.js';
import { parseTime } from './duration.js';
import { formatTime } from '../../apimachinery/time.js';

/** Go's time.RFC3339 of a UTC time: no fractional seconds; the zero time when there is none. */
function rfc3339(ts: unknown): string {
  const ms = parseTime(ts);
  return ms === undefined ? '0001-01-01T00:00:00Z' : formatTime(ms);
}

export const defaultPrinter: Printer = {
  columns: [nameColumn, column('Created At', 'When the object was created.', 'date')],
  cells: (obj) => [obj.metadata?.name ?? '', rfc3339(obj.metadata?.creationTimestamp)],
};
