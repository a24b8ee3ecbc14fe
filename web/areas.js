// Display names of the registry's areas (the registry's own area ids are the keys).
export const AREA_TITLES = {
  training: 'Training & models',
  memory: 'Memory & parallelism',
  comm: 'Communication & hardware',
  inference: 'Inference, serving & RL',
};
