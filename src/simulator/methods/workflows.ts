export const workflowMethods = {};
