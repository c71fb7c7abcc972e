/** Messages of the permission sheet and the inbox split, kept apart from i18n.ts. Spread into both tables there. */
export const permissionEn = {
  permCommand: 'Command',
  permRunsIn: 'Runs in',
  permFetches: 'Fetches',
  permEditLabel: 'edit',
  permWriteLines: 'whole file, {0} lines',
  permShowAll: 'Show all {0} lines',
  permShowLess: 'Show fewer lines',
  permRule: 'Rule {0}',
  permAlsoFor: 'Also asked: {0}',
  permReadOnlyWaiting: 'Waiting for {0}. This device cannot answer it.',
  permReadOnly: 'Waiting for someone else. This device cannot answer it.',
  inboxForMe: 'Waiting for you',
  inboxForOthers: 'Waiting for others',
  inboxView: 'View',
};

export const permissionZh: Record<keyof typeof permissionEn, string> = {
  permCommand: '命令',
  permRunsIn: '运行目录',
  permFetches: '将访问',
  permEditLabel: '修改',
  permWriteLines: '整个文件，{0} 行',
  permShowAll: '显示全部 {0} 行',
  permShowLess: '收起',
  permRule: '规则 {0}',
  permAlsoFor: '同时询问：{0}',
  permReadOnlyWaiting: '等待 {0} 处理。此设备无法回答。',
  permReadOnly: '等待其他人处理。此设备无法回答。',
  inboxForMe: '等你处理',
  inboxForOthers: '等其他人处理',
  inboxView: '查看',
};
