import { z } from 'zod';

/** A string the CLI accepts as an id or a name: not empty once trimmed. */
export const strPlus = z.string().refine((s) => s.trim().length > 0, { message: 'Must not be empty' });
