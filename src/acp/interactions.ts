/**
 * Interaction shaping, both ways (ARCHITECTURE.md §4.5): one import for the domain and the REST
 * inbox. Parsing lives in interaction-schema.ts, ZCode → ACP requests in
 * interaction-requests.ts, client replies → ZCode results in interaction-answers.ts.
 */
export {
  classifyInteraction,
  PLAN_APPROVAL_QUESTION,
  type ElicitationInteraction,
  type InteractionKind,
  type InteractionRecord,
  type PermissionInteraction,
  type PermissionResponse,
  type PlanApprovalInteraction,
  type QuestionInteraction,
  type ZCodePermissionOption,
  type ZCodeQuestion,
} from './interaction-schema.js';
export {
  acpOptionKind,
  interactionToolCallId,
  PLAN_APPROVE_OPTION,
  PLAN_REJECT_OPTION,
  shapeForClient,
  SKIP_SENTINEL,
  toAcpPermissionRequest,
  toElicitationForm,
  toPerQuestionPermissionRequests,
  toPlanApprovalPermissionRequest,
  type AcpInteractionRequest,
} from './interaction-requests.js';
export {
  elicitationAnswerToZcode,
  isOfferedOption,
  permissionAnswerToZcode,
  perQuestionAnswersToZcode,
  planResult,
  restAnswerBodySchema,
  restAnswerToZcode,
  type RestAnswerBody,
  type UserInputResult,
  type ZcodeAnswer,
} from './interaction-answers.js';
