import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { Router } from 'express';
import { validationFailed } from '../validation.js';

/** Spec 4.2: registration initiation. Takes `{aadhaar_number}` (12 digits), answers a transaction id. */
export function registrationRoutes(encryptedOnly: RequestHandler): Router {
  const router = Router();
  router.post('/abdm/na/v1/registration/aadhaar/init', encryptedOnly, (req, res, next) => {
    const aadhaar = (req.body as { aadhaar_number?: unknown } | undefined)?.aadhaar_number;
    if (typeof aadhaar !== 'string' || !/^\d{12}$/.test(aadhaar)) {
      next(validationFailed('"aadhaar_number" must be a string of exactly 12 digits.'));
      return;
    }
    res.json({
      txn_id: randomUUID(),
      status: 'otp_sent',
      message: 'An OTP was sent to the mobile number linked with this Aadhaar number.',
    });
  });
  return router;
}
