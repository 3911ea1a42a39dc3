import { useMutation } from '@tanstack/react-query';
import type { TCreateReportRequest, TCreateReportResponse } from '@spotter/shared';
import { apiRequest } from '../api-client';

/**
 * POST /api/reports (signed-in people): a review, a message or a trainer's profile reported to the
 * operators with a reason and a note (docs/product.md#reports-and-moderation). One report per person
 * and item: a second is refused with 409 ALREADY_REPORTED and a message for the reporter.
 */
const createReport = (report: TCreateReportRequest) =>
  apiRequest<TCreateReportResponse>('/reports', { method: 'POST', body: report });

export function useCreateReport() {
  return useMutation({ mutationFn: createReport });
}
