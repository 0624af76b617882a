/**
 * PUT a file as the raw body to one of the module upload paths (/uploads/feed/..., /uploads/note/...,
 * /uploads/contacts/...), reporting progress (fetch cannot report upload progress; XMLHttpRequest
 * can). Resolves with the JSON answer; rejects with the server's { error } text.
 */
export function putFile<T>(url: string, file: Blob, onProgress?: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.withCredentials = true;
    if (file.type) xhr.setRequestHeader('Content-Type', file.type);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: { error?: string } & T;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        return reject(new Error('Something went wrong; try again'));
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new Error(body.error ?? 'Something went wrong; try again'));
    };
    xhr.onerror = () => reject(new Error('Something went wrong; try again'));
    xhr.send(file);
  });
}
