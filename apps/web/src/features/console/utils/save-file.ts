/** Hands a file made in the page to the browser as a download (a link to a blob URL, clicked). */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // after the click has started the download
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
