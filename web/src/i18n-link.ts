/** Messages about what waits while a link reconnects (a prompt, Stop, an answer, a setting), kept apart from i18n.ts. Spread into both tables there. */
export const linkEn = {
  waitingForLink: 'Waiting for the connection…',
  machineReconnecting: 'Reconnecting to {0}…',
  machineDown: '{0} is offline — will reconnect',
  stopWaiting: 'Stopping…',
  stopNotSent: 'Not connected — Stop was not sent. The turn may still be running.',
  stopNothingToStop: 'The turn ended while reconnecting; there was nothing to stop.',
  answerNotSent: 'Not connected — your answer was not sent.',
  answerWithdrawn: 'This request was answered or withdrawn while reconnecting; your answer was not sent.',
  settingNotChanged: 'Not connected — the setting was not changed.',
  dontSend: 'Don’t send',
  revokedNotSent: 'Access revoked — the message was not sent.',
  refusedNotSent: 'The hub refused this connection — the message was not sent.',
  closedNotSent: 'Disconnected — the message was not sent.',
};

export const linkZh: Record<keyof typeof linkEn, string> = {
  waitingForLink: '正在等待连接…',
  machineReconnecting: '正在重新连接 {0}…',
  machineDown: '{0} 已离线 — 将自动重连',
  stopWaiting: '正在停止…',
  stopNotSent: '未连接 — 停止指令未发送，本轮可能仍在运行。',
  stopNothingToStop: '重新连接期间本轮已结束，无需停止。',
  answerNotSent: '未连接 — 你的回答未发送。',
  answerWithdrawn: '重新连接期间此请求已被回答或撤回，你的回答未发送。',
  settingNotChanged: '未连接 — 设置未更改。',
  dontSend: '不发送',
  revokedNotSent: '访问已撤销 — 消息未发送。',
  refusedNotSent: 'hub 拒绝了此连接 — 消息未发送。',
  closedNotSent: '已断开连接 — 消息未发送。',
};
