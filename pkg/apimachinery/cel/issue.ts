/** cel-go's rendering of a compile issue: location, message, the source line and a caret under the column. */
export function issue(source: string, offset: number, message: string): string {
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  const text = source.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column}: ${message}\n | ${text}\n | ${'.'.repeat(column - 1)}^`;
}
