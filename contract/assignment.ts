import { z } from 'zod';
import { envelopeSchema } from './common.ts';

/** Usernames are at most this long (the admin CLI's limit); a longer one names no account. */
export const MAX_USERNAME_LENGTH = 100;

/** `PUT /api/v2/entities/{id}/assignee`: a reviewer's username, or null to unassign. */
export const assigneeInputSchema = z.strictObject({
  username: z
    .string({ error: 'username must be a reviewer account’s username, or null to unassign.' })
    .trim()
    .min(1, 'username must be a reviewer account’s username, or null to unassign.')
    .max(MAX_USERNAME_LENGTH)
    .nullable(),
});
export type AssigneeInput = z.infer<typeof assigneeInputSchema>;

/** Who works on the entity now, and who did before this change. */
export const assignmentSchema = z.object({
  entityId: z.string(),
  assignedUser: z.string().nullable(),
  previous: z.string().nullable(),
});
export type Assignment = z.infer<typeof assignmentSchema>;
export const assignmentResponseSchema = envelopeSchema(assignmentSchema);

/** `GET /api/v2/entities/{id}/assignee`: who works on the entity (null: nobody). */
export const entityAssigneeSchema = z.object({
  entityId: z.string(),
  assignedUser: z.string().nullable(),
});
export type EntityAssignee = z.infer<typeof entityAssigneeSchema>;
export const entityAssigneeResponseSchema = envelopeSchema(entityAssigneeSchema);

/** An account that can be assigned entities (an enabled reviewer): username and display name. */
export const reviewerSchema = z.object({ username: z.string(), name: z.string() });
export type Reviewer = z.infer<typeof reviewerSchema>;
/** `GET /api/v2/reviewers`: every assignable account, by name. */
export const reviewerListResponseSchema = envelopeSchema(z.array(reviewerSchema));
