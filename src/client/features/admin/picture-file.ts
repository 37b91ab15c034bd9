import { errorCatalogue } from '../../../shared/errors';
import { productLimits } from '../../../shared/limits';

/** Pictures the shop takes: it checks the content, whatever the file is called. */
export const acceptedPictures = 'image/jpeg,image/png,image/webp';

/**
 * The file chosen in a picture's file field, or why it is not sent: none chosen, or larger than the server takes (it
 * would refuse it from its length).
 */
export function chosenPicture(field: HTMLInputElement | null): { picture: File } | { problem: string } {
  const picture = field?.files?.[0];
  if (!picture) return { problem: 'Choose a picture first.' };
  if (picture.size > productLimits.pictureMaxBytes) return { problem: errorCatalogue['picture/too-large'].message };
  return { picture };
}
