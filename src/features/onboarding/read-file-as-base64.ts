/** Reads a file in the browser and resolves with the base64 of its bytes, reporting progress. */
export function readFileAsBase64(
  file: Blob,
  {
    onProgress,
    signal,
  }: { onProgress?: (loaded: number, total: number) => void; signal?: AbortSignal } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded, event.total);
    };
    reader.onload = () => {
      const dataUrl = typeof reader.result === 'string' ? reader.result : '';
      // A data URL is `data:<type>;base64,<bytes>`: keep what follows the first comma.
      resolve(dataUrl.slice(dataUrl.indexOf(',') + 1));
    };
    reader.onerror = () => {
      reject(reader.error ?? new Error('The file could not be read.'));
    };
    reader.onabort = () => {
      reject(new DOMException('Reading the file was cancelled.', 'AbortError'));
    };
    signal?.addEventListener('abort', () => reader.abort(), { once: true });
    reader.readAsDataURL(file);
  });
}
