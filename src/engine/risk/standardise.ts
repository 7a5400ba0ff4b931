/** Per-feature mean and standard deviation of the training rows, applied unchanged to test and scoring rows. */
export type Standardiser = { means: number[]; scales: number[] };

export function fitStandardiser(features: Float64Array, width: number): Standardiser {
  const rows = features.length / width;
  const means = new Array<number>(width).fill(0);
  const squares = new Array<number>(width).fill(0);
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < width; column += 1) means[column]! += features[row * width + column]!;
  }
  for (let column = 0; column < width; column += 1) means[column]! /= Math.max(1, rows);
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < width; column += 1) squares[column]! += (features[row * width + column]! - means[column]!) ** 2;
  }
  // A constant column keeps scale 1 so it standardises to 0 instead of dividing by 0.
  const scales = squares.map((square) => Math.sqrt(square / Math.max(1, rows)) || 1);
  return { means, scales };
}

/**
 * Standardised values are clipped to ±5: a feature almost constant in training (a patient with no
 * dispensings on record, when every trained-on patient had some) would otherwise be thousands of standard
 * deviations out and pin the risk at 0 or 1.
 */
export const standardisedLimit = 5;

export function standardisedValue(value: number, mean: number, scale: number): number {
  return Math.max(-standardisedLimit, Math.min(standardisedLimit, (value - mean) / scale));
}

export function standardise(features: Float64Array, standardiser: Standardiser): Float32Array {
  const width = standardiser.means.length;
  const out = new Float32Array(features.length);
  for (let index = 0; index < features.length; index += 1) {
    const column = index % width;
    out[index] = standardisedValue(features[index]!, standardiser.means[column]!, standardiser.scales[column]!);
  }
  return out;
}
