// metav1.Time and metav1.MicroTime as the API writes them. Every write and most events stamp the current second, so
// the text of the last second is kept rather than formatted again.

let lastSecond = NaN;
let lastText = '';

/** metav1.Time: RFC 3339 in UTC to the second (Go's time.RFC3339), from epoch milliseconds. */
export const formatTime = (ms: number): string => {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    lastSecond = second;
  }
  return lastText;
};

/** metav1.MicroTime: RFC 3339 with microseconds. */
export const formatMicroTime = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
