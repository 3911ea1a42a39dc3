import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CERTIFICATE_MSG,
  ZApproveCertificateRequest,
  ZConsoleCertificateDecisionResponse,
  ZConsoleCertificatesQuery,
  ZConsoleCertificatesResponse,
  ZErrorResponse,
  ZIdParam,
  ZOperatorReason,
} from '@spotter/shared';
import type { RateLimits } from '../../platform/rate-limits';
import type { Auth } from '../../plugins/auth';
import { requireOperator, type ConsoleDeps } from '../console';
import type { CertificatesService } from './certificates.service';
import { sendCertificateFile } from './file-reply';

const errors = { 400: ZErrorResponse, 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 429: ZErrorResponse };

/** The operators' queue of certificates (docs/product.md#verified-coaches): read the file, approve or reject with a reason. */
export function consoleCertificatesRoutes(
  service: CertificatesService,
  deps: ConsoleDeps,
  auth: Auth,
  limits: Pick<RateLimits, 'writes'>,
) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const operatorOnly = requireOperator(deps, auth);
    const params = ZIdParam(CERTIFICATE_MSG.notFound);

    r.get(
      '/console/certificates',
      {
        schema: {
          tags: ['console'],
          summary: 'Certificates by status: pending ones oldest first, the others newest first; 100 at most',
          querystring: ZConsoleCertificatesQuery,
          response: { 200: ZConsoleCertificatesResponse, ...errors },
        },
        preHandler: operatorOnly,
      },
      async (req) => service.queue(req.query.status),
    );

    r.get(
      '/console/certificates/:id/file',
      {
        schema: {
          tags: ['console'],
          summary: 'A certificate’s file (private, never cached)',
          params,
          response: { 200: z.any(), ...errors },
        },
        preHandler: operatorOnly,
      },
      async (req, reply) => sendCertificateFile(reply, await service.file(req.params.id.toLowerCase())),
    );

    r.post(
      '/console/certificates/:id/approve',
      {
        schema: {
          tags: ['console'],
          summary: 'Approve a pending certificate: the trainer is a verified coach until it expires, and is mailed',
          params,
          body: ZApproveCertificateRequest,
          response: { 200: ZConsoleCertificateDecisionResponse, ...errors, 409: ZErrorResponse },
        },
        preHandler: [operatorOnly, ...limits.writes],
      },
      async (req) =>
        service.decide({
          id: req.params.id.toLowerCase(),
          operatorId: req.operator!.id,
          status: 'approved',
          reason: req.body.reason,
        }),
    );

    r.post(
      '/console/certificates/:id/reject',
      {
        schema: {
          tags: ['console'],
          summary: 'Reject a pending certificate with a reason; the trainer is mailed the reason',
          params,
          body: ZOperatorReason,
          response: { 200: ZConsoleCertificateDecisionResponse, ...errors, 409: ZErrorResponse },
        },
        preHandler: [operatorOnly, ...limits.writes],
      },
      async (req) =>
        service.decide({
          id: req.params.id.toLowerCase(),
          operatorId: req.operator!.id,
          status: 'rejected',
          reason: req.body.reason,
        }),
    );
  };
}
