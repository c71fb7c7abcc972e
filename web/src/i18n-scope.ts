/**
 * Messages that name the scope a device lacks and how to get it (the /needs-admin and
 * /needs-operate pages, the admin-only notes in Settings), kept apart from i18n.ts. Spread into
 * both tables there.
 */
export const scopeEn = {
  adminOnlySettings:
    'The paired devices and the doctor report are for admin devices, and only an admin device adds, changes, tests or removes a provider.',
  providersReadOnly: 'This device sees the providers; adding, changing, testing, turning on or off and removing one need an admin device.',
  workflowsReadOnly: 'This device sees the saved workflows; starting a run needs an operate device.',
  doctorAdminOnly:
    'Doctor is a report, not a setting: it checks the hub’s addresses, secret files, peers and the agent’s setup, so only admin devices read it. This device still sees the agent’s state at the top of the screen whenever the agent is not ready.',
  /** {0} is the command, shown as code. */
  adminHowTo: 'To make this device an admin, run {0} on the computer that runs the hub, then open the link it prints on this device.',
  needsAdminTitle: 'This page needs an admin device',
  needsAdminDocs: 'The API docs describe the hub’s admin routes, so only admin devices open them.',
  needsAdminPeopleBar: 'People',
  needsAdminPeople: 'The people list, and which person each device belongs to, is managed from admin devices only.',
  needsAdminTokensBar: 'Device tokens',
  needsAdminTokens: 'Device tokens (pairing, renaming and revoking devices) are managed from admin devices only.',
  needsAdminPublicUrls: 'The addresses this hub answers to (its public URL, tunnels) are managed from admin devices only.',
  needsAdminAuditBar: 'Audit log',
  needsAdminAudit: 'The audit log of who changed what on this hub is for admin devices only.',
  needsAdminBar: 'Admin only',
  /** {0} is the address opened, shown as code. */
  needsAdminOther: 'The address you opened, {0}, is for admin devices only.',
  needsOperateBar: 'Not for view devices',
  needsOperateTitle: 'This page needs an operate device',
  needsOperateWhy:
    'This device is paired with the view scope: it follows sessions, but what you opened is for devices that prompt, answer and browse workspaces.',
  /** {0} is the command, shown as code. */
  operateHowTo:
    'To let this device operate, run {0} on the computer that runs the hub (operate is its default scope), then open the link it prints on this device.',
};

export const scopeZh: Record<keyof typeof scopeEn, string> = {
  adminOnlySettings: '已配对的设备和诊断报告只给管理员设备查看，服务商也只能在管理员设备上添加、修改、测试或删除。',
  providersReadOnly: '这台设备可以查看服务商；添加、修改、测试、启用或停用以及删除服务商需要管理员设备。',
  workflowsReadOnly: '这台设备可以查看已保存的工作流；开始运行需要可操作（operate）的设备。',
  doctorAdminOnly:
    '诊断是一份报告，不是设置：它检查 hub 的地址、密钥文件、对等来源和代理的配置，所以只有管理员设备可以查看。代理未就绪时，这台设备仍会在屏幕顶部看到代理的状态。',
  adminHowTo: '要让这台设备成为管理员，请在运行 hub 的电脑上执行 {0}，然后在这台设备上打开它输出的链接。',
  needsAdminTitle: '此页面需要管理员设备',
  needsAdminDocs: 'API 文档描述了 hub 的管理接口，只有管理员设备可以打开。',
  needsAdminPeopleBar: '人员',
  needsAdminPeople: '人员列表以及每台设备属于谁，只能在管理员设备上管理。',
  needsAdminTokensBar: '设备令牌',
  needsAdminTokens: '设备令牌（配对、重命名和撤销设备）只能在管理员设备上管理。',
  needsAdminPublicUrls: '这个 hub 响应的地址（它的公开 URL、隧道）只能在管理员设备上管理。',
  needsAdminAuditBar: '审计日志',
  needsAdminAudit: '记录谁在这个 hub 上改了什么的审计日志只给管理员设备查看。',
  needsAdminBar: '仅限管理员',
  needsAdminOther: '你打开的地址 {0} 只给管理员设备使用。',
  needsOperateBar: '查看设备不可用',
  needsOperateTitle: '此页面需要可操作（operate）的设备',
  needsOperateWhy: '这台设备以查看（view）权限配对：它可以跟随会话，但你打开的内容只给可以发送提示、回答请求和浏览工作区的设备。',
  operateHowTo: '要让这台设备可以操作，请在运行 hub 的电脑上执行 {0}（默认权限就是 operate），然后在这台设备上打开它输出的链接。',
};
