import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TCertificatesResponse, TCertificateUploadResponse } from '@spotter/shared';
import { ApiError, apiRequest, errorCodeOf, NETWORK_ERROR_MESSAGE } from '../api-client';
import { storage } from '../storage';

/**
 * A trainer's certificates (docs/product.md#verified-coaches): the ones they uploaded, whether they are a
 * verified coach now, the upload and the file of one. The token is part of each key, so an account
 * switch never shows another trainer's certificates.
 */
const certificateKeys = {
  all: ['certificates'] as const,
  list: (viewer: string | null) => [...certificateKeys.all, 'list', viewer] as const,
};

/** GET /api/trainer/certificates: the trainer's own, newest first, and whether they are verified today. */
const getCertificates = (signal?: AbortSignal) => apiRequest<TCertificatesResponse>('/trainer/certificates', { signal });

export function useCertificates(viewer: string | null) {
  return useQuery({ queryKey: certificateKeys.list(viewer), queryFn: ({ signal }) => getCertificates(signal) });
}

type ErrorBody = { message?: unknown; errors?: Record<string, string> };

/** The API's failure as an ApiError, with the server's words (and its field messages on a 400). */
async function failureOf(response: Response) {
  let data: ErrorBody | null = null;
  if (response.headers.get('content-type')?.includes('application/json')) {
    data = (await response.json().catch(() => null)) as ErrorBody | null;
  }
  const message =
    typeof data?.message === 'string' ? data.message : `Something went wrong (${response.status}). Please try again.`;
  return new ApiError(response.status, message, data?.errors, errorCodeOf(data));
}

/** A request with the member's token (the browser sets the multipart boundary of a FormData body itself). */
async function send(path: string, init: RequestInit = {}, accept = 'application/json') {
  const headers: Record<string, string> = { Accept: accept };
  const token = storage.getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { ...init, headers });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
  if (!response.ok) throw await failureOf(response);
  return response;
}

type CertificateUpload = { file: File; issuer: string; expiresOn: string };

/** POST /api/trainer/certificates (multipart `file`, `issuer`, `expiresOn`) → 201 the certificate and the message to show. */
const uploadCertificate = async ({ file, issuer, expiresOn }: CertificateUpload) => {
  const form = new FormData();
  form.append('issuer', issuer);
  form.append('expiresOn', expiresOn);
  form.append('file', file, file.name);
  const response = await send('/trainer/certificates', { method: 'POST', body: form });
  return (await response.json()) as TCertificateUploadResponse;
};

export function useUploadCertificate(viewer: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadCertificate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: certificateKeys.list(viewer) }),
  });
}

/** GET /api/trainer/certificates/:id/file: the trainer's own file, as a blob (a plain link cannot send the token). */
export const getCertificateFile = async (id: string) =>
  (await send(`/trainer/certificates/${encodeURIComponent(id)}/file`, {}, '*/*')).blob();
