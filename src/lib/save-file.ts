/** Saves bytes already held in an object URL under the given name, as a browser download. */
export function saveObjectUrl(objectUrl: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}

/** Hands a Blob to the browser as a download, then lets the memory go. */
export function saveBlob(blob: Blob, fileName: string): void {
  const objectUrl = URL.createObjectURL(blob);
  saveObjectUrl(objectUrl, fileName);
  // A click starts the download synchronously, but some browsers read the URL a moment later.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
}
