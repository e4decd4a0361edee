// Prepared uploads (the MCP tool prepare_upload): the design id is reserved and a signed upload
// token handed out first; the file's bytes follow by HTTP PUT within 15 minutes (never as tool
// arguments) and become the design exactly as POST /v1/analyze makes one. The token is the PUT's
// credential, like a signed download; where it is redeemed is the transport's.
import { isStoreError, type DocumentCollection } from '@kerf/store';
import {
  requireScope, type Caller, type UseCaseContext, UseCaseError, invalid, DesignInput, MAX_PREPARED_UPLOAD_BYTES,
  PrepareUploadRequest, validateInput,
} from '../core/index.ts';
import { type DesignView } from './design-view.ts';
import { designView, getDesignRow, submitDesign } from './designs.ts';
import { measureUpload, type UploadBytes } from './received-file.ts';

/** How long an upload link works. */
export const UPLOAD_TTL_MS = 15 * 60 * 1000;
export { MAX_PREPARED_UPLOAD_BYTES };
const STEP_NAME = /\.(step|stp)$/i;
/** Marks a signed token as an upload grant, so a download token never opens an upload and back. */
const UPLOAD_GRANT = 'application/x-kerf-upload';

interface UploadDoc {
  id: string;
  design_id: string;
  filename: string;
  size_bytes: number | null;
  sha256: string | null;
  status: 'awaiting_upload' | 'received';
  created_at: string;
  expires_at: string;
  [key: string]: unknown;
}

/** What prepare_upload answers: where and how to send the bytes (the transport turns the token into a URL). */
export interface PreparedUpload {
  design_id: string;
  upload_token: string;
  max_bytes: number;
  expires_at: string;
}

/** A reserved design whose bytes have not arrived: what inspect_design says instead of "not found". */
export interface PendingUpload {
  design_id: string;
  status: 'awaiting_upload' | 'expired';
  filename: string;
  expires_at: string;
}

function uploads(ctx: UseCaseContext): DocumentCollection<UploadDoc> {
  return ctx.store.documents<UploadDoc>('uploads', { idPrefix: 'upl' });
}

/** Reserves a design id for a STEP file and signs the link its bytes go to. */
export async function prepareUpload(ctx: UseCaseContext, caller: Caller, input: PrepareUploadRequest): Promise<PreparedUpload> {
  requireScope(caller, 'designs');
  const req = validateInput(PrepareUploadRequest, input);
  if (/[\\/]/.test(req.filename) || !STEP_NAME.test(req.filename)) {
    throw invalid('unsupported_file_type', `'${req.filename}' is not a STEP file name: give the base name of a .step or .stp file (export the part as STEP first).`, 'filename');
  }
  const now = ctx.now();
  const designId = ctx.newId('des');
  const doc: UploadDoc = {
    id: ctx.newId('upl'), design_id: designId, filename: req.filename,
    size_bytes: req.size_bytes ?? null, sha256: req.sha256?.toLowerCase() ?? null,
    status: 'awaiting_upload', created_at: now.toISOString(), expires_at: new Date(now.getTime() + UPLOAD_TTL_MS).toISOString(),
  };
  // keyed by the design id: inspect_design finds the upload a reserved design is waiting for
  await uploads(ctx).create(caller.accountId, doc, { id: doc.id, key: designId });
  return {
    design_id: designId,
    upload_token: ctx.signer.sign({ k: `uploads/${doc.id}`, t: UPLOAD_GRANT, n: doc.id }, UPLOAD_TTL_MS),
    max_bytes: MAX_PREPARED_UPLOAD_BYTES,
    expires_at: doc.expires_at,
  };
}

export interface ReceiveUploadInput {
  token: string;
  /** the PUT's body, or the file it was spooled to */
  bytes: UploadBytes;
}

/** The PUT: checks the link and the bytes against what was announced, then makes the design. */
export async function receiveUpload(ctx: UseCaseContext, input: ReceiveUploadInput): Promise<DesignView> {
  const grant = ctx.signer.verify(input.token);
  if (grant === 'expired') {
    throw new UseCaseError('forbidden', 'permission_error', 'upload_expired', 'This upload link has expired (links last 15 minutes); call prepare_upload again for a new one.');
  }
  if (grant === 'invalid' || grant.t !== UPLOAD_GRANT) {
    throw new UseCaseError('forbidden', 'permission_error', 'invalid_signature', 'This upload link is not valid; use upload_url exactly as prepare_upload returned it.');
  }
  const rec = await uploads(ctx).getUnscoped(grant.n);
  if (!rec) throw new UseCaseError('forbidden', 'permission_error', 'invalid_signature', 'This upload link is not valid; use upload_url exactly as prepare_upload returned it.');
  const doc = rec.data;
  const bytes = input.bytes;
  const { size, sha256 } = measureUpload(bytes);
  if (size > MAX_PREPARED_UPLOAD_BYTES) {
    throw new UseCaseError('too_large', 'invalid_request_error', 'file_too_large', `The file is ${size} bytes; uploads take at most ${MAX_PREPARED_UPLOAD_BYTES} bytes (50 MiB). Split the assembly into smaller files.`);
  }
  if (doc.status === 'received') {
    // a retried PUT of the same file answers the design it made; other bytes would silently change it
    const row = await getDesignRow(ctx, rec.accountId, doc.design_id);
    if (sha256 === row.sourceSha256) return designView(ctx, row);
    throw new UseCaseError('conflict', 'invalid_request_error', 'upload_already_received', `Design '${doc.design_id}' already has its file; call prepare_upload again to upload a different one.`);
  }
  if (doc.size_bytes !== null && size !== doc.size_bytes) {
    throw invalid('upload_size_mismatch', `The upload is ${size} bytes but prepare_upload announced size_bytes ${doc.size_bytes}; send the whole file (or prepare again with the right size).`, 'size_bytes');
  }
  if (doc.sha256 !== null && sha256 !== doc.sha256) {
    throw invalid('upload_checksum_mismatch', `The upload's SHA-256 is ${sha256}, not the ${doc.sha256} prepare_upload announced; send the file unchanged (binary, no transcoding) or prepare again.`, 'sha256');
  }
  let design: DesignView;
  try {
    design = await submitDesign(ctx, { accountId: rec.accountId, fileName: doc.filename, bytes, designId: doc.design_id });
  } catch (err) {
    // two PUTs at once: the first made the design, the second reads it
    if (!isStoreError(err, 'duplicate')) throw err;
    return designView(ctx, await getDesignRow(ctx, rec.accountId, doc.design_id));
  }
  await uploads(ctx).update(rec.accountId, rec.id, { ...doc, status: 'received' });
  return design;
}

/** The upload a design id was reserved for, while its bytes have not arrived (null: none). */
export async function getPendingUpload(ctx: UseCaseContext, caller: Caller, input: DesignInput): Promise<PendingUpload | null> {
  requireScope(caller, 'designs');
  const { design_id } = validateInput(DesignInput, input, { location: 'params' });
  const rec = await uploads(ctx).getByKey(caller.accountId, design_id);
  if (!rec || rec.data.status === 'received') return null;
  const d = rec.data;
  return { design_id, status: d.expires_at < ctx.now().toISOString() ? 'expired' : 'awaiting_upload', filename: d.filename, expires_at: d.expires_at };
}
