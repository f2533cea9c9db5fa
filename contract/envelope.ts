/** The response envelope (docs/interface.md#the-envelope), shared by every answer. */
export interface ErrorDetail { code: string; code_message: string; message: string }

export interface Envelope {
  request_id: string;
  log_id: string;
  error_detail: ErrorDetail;
}

export interface TaskSubmitted extends Envelope { task_id: string }

export interface TaskResult extends Envelope {
  task_status: 0 | 1 | 2;
  data?: { result_urls: string[] };
}

export const emptyErrorDetail = (): ErrorDetail => ({ code: '', code_message: '', message: '' });
