/**
 * Messages of the Devices screen grouped by person (docs/SECURITY.md "People"), kept apart from
 * i18n.ts. Spread into both tables there.
 */
export const peopleEn = {
  personDevices: 'devices: {0}',
  personAdmin: '{0} · admin token',
  moveDevice: 'Move',
  movePrompt: 'Whose device is “{0}”? (a person’s name)',
  moved: '“{0}” is now {1}’s',
  pairFor: 'For person (optional)',
  pairForHint: 'Prompts and answers from the new device are shown as this person’s. Empty: a new person named after the device.',
  pairCodeFor: 'Code for {0}',
};

export const peopleZh: Record<keyof typeof peopleEn, string> = {
  personDevices: '设备：{0}',
  personAdmin: '{0} · 管理员令牌',
  moveDevice: '移交',
  movePrompt: '“{0}”属于谁？（填写人名）',
  moved: '“{0}”现在属于 {1}',
  pairFor: '所属人员（可选）',
  pairForHint: '新设备的提问和回答将显示为此人。留空：以设备名新建一个人员。',
  pairCodeFor: '给 {0} 的配对码',
};
