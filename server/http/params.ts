import { z } from 'zod';
import { idSchema } from '../../contract/common.ts';

/** The `{id}` path parameter every resource's routes take. */
export const idParamsSchema = z.object({ id: idSchema });
