import { defineEndpoint } from '../endpoint.ts';
import { taskQueryResult } from '../result.ts';
import { textField } from '../fields.ts';

export default defineEndpoint({
  slug: 'query-async-task-result',
  path: '/api/common/query-async-task-result',
  method: 'GET',
  mode: 'query',
  group: 'common',
  title: 'Task result',
  summary: 'Status and result of an asynchronous task; poll until task_status is 2.',
  fields: {
    task_id: textField(100, 'Task id', 'The task_id an asynchronous endpoint returned.', { required: true }),
  },
  result: taskQueryResult,
});
