/**
 * The interaction reverse requests and their answers (docs/APP-SERVER.md §6.2, §6.3), one
 * definition each: the simulator sends the requests and checks the answers with the strict
 * readings; the hub reads the requests with the lenient ones (src/acp/interaction-schema.ts).
 */
import { z } from 'zod';
import { drift, message, unread } from './message.js';
import { strPlus } from './text.js';

const str1 = z.string().min(1);

const permissionRule = z.strictObject({ toolName: strPlus, ruleContent: z.string().optional() });
const permissionUpdate = z.strictObject({
  type: z.literal('addRules'),
  behavior: z.enum(['allow', 'deny', 'ask']),
  rules: z.array(permissionRule).min(1),
});

/**
 * PermissionResponse (§6.2): the answer to `interaction/requestPermission`. The hub passes the
 * chosen option's `response` through verbatim, so it reads `decision` and the rules as they come.
 */
export const permissionResponse = message({
  decision: drift(z.enum(['allow', 'deny', 'escalate', 'modify']), z.string()),
  reason: z.string().optional(),
  modifiedInput: z.unknown().optional(),
  permissionUpdates: drift(z.array(permissionUpdate).optional(), z.array(z.unknown()).optional()),
});
export type PermissionResponse = z.infer<typeof permissionResponse.strict>;

/** PermissionOption (§6.2): `allow_once`, `allow_project` (kind `allow_always`), `deny`. */
export const permissionOption = message({
  optionId: str1,
  kind: str1,
  name: str1,
  description: z.string().optional(),
  response: permissionResponse.field(),
});
export type PermissionOption = z.infer<typeof permissionOption.strict>;

/** A sub-agent request's `origin` (§6.2): the hub routes by `parentSessionId` only. */
export const requestOrigin = message({
  kind: z.string().optional(),
  parentSessionId: z.string().optional(),
  childSessionId: z.string().optional(),
  agentId: unread(z.string().optional()),
  agentType: unread(z.string().optional()),
  parentToolCallId: unread(z.string().optional()),
  parentTurnId: unread(z.string().optional()),
  description: unread(z.string().optional()),
});

export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;

/** `interaction/requestPermission` params (§6.2); an older CLI may omit `reason` or `riskLevel`. */
export const requestPermissionParams = message({
  requestId: str1,
  sessionId: str1,
  turnId: z.string().optional(),
  toolCallId: str1,
  toolName: str1,
  reason: drift(z.string(), z.string().default('')),
  riskLevel: drift(z.enum(RISK_LEVELS), z.string().default('medium')),
  input: z.unknown().optional(),
  origin: requestOrigin.optional(),
  options: permissionOption.list(1),
});
export type RequestPermissionParams = z.infer<typeof requestPermissionParams.strict>;

const questionOption = message({
  value: str1,
  label: str1,
  description: z.string().optional(),
  preview: z.unknown().optional(),
});

/** A question of AskUserQuestion (§6.3); some CLIs send it without `header` or `options` (§14.6). */
export const question = message({
  question: str1,
  header: drift(z.string(), z.string().default('')),
  options: drift(z.array(questionOption.strict), z.array(questionOption.lenient).default([])),
  multiSelect: z.boolean().optional(),
});
export type Question = z.infer<typeof question.lenient>;

/** `interaction/requestUserInput` params (§6.3): AskUserQuestion, plan approval, MCP elicitation. */
export const requestUserInputParams = message({
  requestId: str1,
  sessionId: str1,
  turnId: z.string().optional(),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  prompt: z.string().optional(),
  questions: drift(z.array(question.strict).optional(), z.array(question.lenient).optional()),
  input: z.unknown().optional(),
  origin: requestOrigin.optional(),
  schema: z.unknown().optional(),
});
export type RequestUserInputParams = z.infer<typeof requestUserInputParams.strict>;

/** The answer to `interaction/requestUserInput` (§6.3). */
export const userInputResult = message({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.unknown()).optional(),
  reason: z.string().optional(),
});
export type UserInputResult = z.infer<typeof userInputResult.strict>;
