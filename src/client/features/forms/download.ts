import type { trpc } from '../../trpc';

type Utils = ReturnType<typeof trpc.useUtils>;

/** Saves the CSV of a template's submissions (forms.exportCsv) as a file. */
export async function downloadCsv(utils: Utils, domain: string, templateId: string, lang: string) {
  const out = await utils.forms.exportCsv.fetch({ domain, templateId, lang: lang as 'en' }, { staleTime: 0 });
  saveBlob(new Blob([out.csv], { type: 'text/csv;charset=utf-8' }), out.fileName);
}

export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The server-made PDF of a filled form, in the reader's language and time zone. */
export function pdfUrl(formId: string, lang: string) {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `/forms/${formId}/pdf?${new URLSearchParams({ lang, ...(tz && { tz }) })}`;
}

/**
 * Uploads the answer of a file, image or signature field (PUT /uploads/form/:formId/:fieldId):
 * answers the stored file, or throws the server's refusal text.
 */
export async function uploadAnswer(formId: string, fieldId: string, file: Blob, name: string): Promise<{ name: string; size: number; mime: string }> {
  const res = await fetch(`/uploads/form/${formId}/${fieldId}?${new URLSearchParams({ name })}`, {
    method: 'PUT',
    credentials: 'include',
    headers: { 'content-type': file.type || 'application/octet-stream' },
    body: file,
  });
  const body = (await res.json().catch(() => ({}))) as { value?: { name: string; size: number; mime: string }; error?: string };
  if (!res.ok || !body.value) throw new Error(body.error ?? 'Something went wrong; try again');
  return body.value;
}
