/**
 * Hands a file made in the page to the browser to save under `name` (Insights' CSV, read with the key, which a plain
 * link could not send): a link to the file's blob URL, clicked once, then let go.
 */
export function saveFile(file: Blob, name: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Past the click the browser has the file; the URL is kept a little for browsers that read it late.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
