export const v4Methods = {};
