// placeholder until the webhook configuration lands
export const webhookDispatchDeps: any = undefined;
