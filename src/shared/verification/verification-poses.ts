/**
 * The poses a verification selfie copies (docs/decisions/0034). The server picks one at random
 * for each attempt, so a selfie cannot be an old photo; each has a picture under
 * `/verification-poses/<id>.svg` and a Spanish instruction that doubles as its alternative text.
 */
export const VERIFICATION_POSES = ['thumb-up', 'peace', 'open-palm', 'chin', 'salute', 'cover-eye'] as const;
export type VerificationPose = (typeof VERIFICATION_POSES)[number];

export const POSE_INSTRUCTIONS: Record<VerificationPose, string> = {
  'thumb-up': 'Levanta el pulgar junto a tu cara',
  peace: 'Haz el signo de la victoria (dos dedos en V) junto a tu cara',
  'open-palm': 'Pon la mano abierta junto a tu mejilla',
  chin: 'Apoya el dedo índice en tu barbilla',
  salute: 'Lleva la mano a la frente, como en un saludo',
  'cover-eye': 'Tápate un ojo con la mano',
};

/** Where the pose's picture is served (a static file of the app). */
export function posePictureUrl(pose: VerificationPose): string {
  return `/verification-poses/${pose}.svg`;
}

export function isVerificationPose(value: unknown): value is VerificationPose {
  return typeof value === 'string' && (VERIFICATION_POSES as readonly string[]).includes(value);
}

/**
 * A pose chosen with `random` (a number in [0, 1), e.g. crypto-backed on the server), never
 * `previous` when there is one: a new attempt after a rejection gets a new pose.
 */
export function choosePose(random: () => number, previous?: VerificationPose | null): VerificationPose {
  const choices = previous ? VERIFICATION_POSES.filter((pose) => pose !== previous) : VERIFICATION_POSES;
  const index = Math.min(choices.length - 1, Math.floor(random() * choices.length));
  return choices[Math.max(0, index)] as VerificationPose;
}
