// A restart runs a step again and counts as one of its attempts: the turns steps resume from their
// checkpoint, so they may take a few more than the engine's default three retries.
export const STEP_RETRIES = 8;
