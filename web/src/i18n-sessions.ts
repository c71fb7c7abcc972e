/**
 * Messages of session management (archive, previews) and the new-session workspace picker
 *, kept apart from i18n.ts. Spread into both tables there.
 */
export const sessionsEn = {
  archive: 'Archive',
  unarchive: 'Unarchive',
  archived: 'Archived',
  archivedCount: 'Archived ({0})',
  archivedHint: 'Archived sessions are hidden from the list. Nothing is deleted.',
  previewYou: 'You: {0}',
  pickWorkspace: 'Where should the agent work?',
  workspaceRoots: 'Workspace roots',
  browseFolders: 'Browse folders',
  browseUp: 'Up one folder',
  browseUse: 'Use this folder',
  browseEmpty: 'No folders here.',
  browseOpen: 'Open {0}',
  browseTruncated: 'Only the first {0} folders are shown.',
  workspaceOutside: 'Pick a folder inside: {0}',
  allArchived: 'Every session is archived. Start a new one, or open Archived.',
  lineAdded: 'added',
  lineRemoved: 'removed',
  sessionDeletedElsewhere: 'This session was deleted on another device',
  sessionDeletedBy: 'This session was deleted on another device ({0})',
};

export const sessionsZh: Record<keyof typeof sessionsEn, string> = {
  archive: '归档',
  unarchive: '取消归档',
  archived: '已归档',
  archivedCount: '已归档 ({0})',
  archivedHint: '已归档的会话不会显示在列表中，但不会被删除。',
  previewYou: '你：{0}',
  pickWorkspace: '让代理在哪里工作？',
  workspaceRoots: '工作区根目录',
  browseFolders: '浏览文件夹',
  browseUp: '上一级文件夹',
  browseUse: '使用此文件夹',
  browseEmpty: '这里没有文件夹。',
  browseOpen: '打开 {0}',
  browseTruncated: '只显示前 {0} 个文件夹。',
  workspaceOutside: '请选择以下目录中的文件夹：{0}',
  allArchived: '所有会话都已归档。新建一个会话，或打开“已归档”。',
  lineAdded: '新增',
  lineRemoved: '删除',
  sessionDeletedElsewhere: '此会话已在其他设备上删除',
  sessionDeletedBy: '此会话已在其他设备上删除（{0}）',
};
