/** Saves a file the page has read (with the session's token) under a name, as a download link would. */
export function saveBlob(blob: Blob, filename: string): void {
  const href = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href, download: filename, rel: 'noopener' });
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the save; the URL may go once the browser has taken it.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
