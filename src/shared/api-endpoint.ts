/** The shape of one endpoint of the API's contract (src/shared/api.ts), which every area's endpoints satisfy. */
import type { z } from 'zod';

export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path; a segment `:name` is a parameter, filled in by the caller. */
  path: string;
  /** The query string it takes (each value a string); none when absent. */
  query?: z.ZodType;
  /** The JSON body it takes; none when absent. */
  body?: z.ZodType;
  /** The JSON it answers with; `204 No Content` when absent. */
  reply?: z.ZodType;
  /** It takes a file as the body, as it is (a picture), instead of JSON. */
  file?: true;
}
