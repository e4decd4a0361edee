// What a tool answers: the use case's result as structured content with a text copy for models
// that read text, and a use case's error as a tool error saying what went wrong and what to do.
import { ERROR_CODES, UseCaseError, type Logger } from '@kerf/usecases';
import type { CallToolResult } from '@modelcontextprotocol/server';

type Content = CallToolResult['content'][number];

const ACTIONS = new Map(ERROR_CODES.map((e) => [e.code, e.action]));

export function toolResult(text: string, structured: Record<string, unknown>, extra: Content[] = []): CallToolResult {
  return { content: [{ type: 'text', text }, ...extra], structuredContent: structured };
}

/** A use case's error as the contract's error object, in a tool error (isError): the model reads it and corrects the call. */
export function toolError(err: unknown, log: Logger): CallToolResult {
  const e = err instanceof UseCaseError ? err : null;
  if (!e) log.error({ err }, 'MCP tool failed');
  const error = e
    ? { type: e.type, code: e.code, message: e.message, param: e.param, details: e.details, retryable: e.retryable }
    : { type: 'api_error', code: 'internal_error', message: 'An unexpected error occurred; retry the identical call (same operation_key).', param: null, details: null, retryable: true };
  const action = ACTIONS.get(error.code);
  const where = error.param ? ` (param ${error.param})` : '';
  const text = `Error ${error.code}${where}: ${error.message}${action ? `\nWhat to do: ${action}` : ''}${error.retryable ? '\nThis error is temporary: retrying the identical call may succeed.' : ''}`;
  return { content: [{ type: 'text', text }], structuredContent: { error }, isError: true };
}

/** A plain-text rendering of a JSON value, for the text copy of a result. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 1);
}
