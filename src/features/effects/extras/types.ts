/** The props of a panel extra and of a field override (extras/index.ts keys them by endpoint slug). */
import type { Endpoint } from '../../../../contract/endpoint.ts';
import type { Field } from '../../../../contract/fields.ts';
import type { FieldValue, FormValues } from '../utils/form-values.ts';

export interface ExtraProps {
  endpoint: Endpoint;
  values: FormValues;
  setValue: (field: string, value: FieldValue) => void;
}

export interface FieldOverrideProps {
  id: string;
  field: Field;
  value: FieldValue;
  onChange: (value: FieldValue) => void;
  describedBy: string;
}
