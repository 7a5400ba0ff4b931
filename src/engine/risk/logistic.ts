/**
 * Logistic regression with a small ridge penalty, fitted by Newton's method (iteratively reweighted least
 * squares). Hand-written rather than with TensorFlow.js: with ~30 standardised features the Hessian is tiny,
 * Newton converges to the exact optimum in a few passes (no learning rate to tune, same result on every
 * machine), and the coefficients explain a score in words (`contributions`).
 */
import { fitStandardiser, standardise, standardisedValue, type Standardiser } from './standardise';

export type LogisticModel = { kind: 'logistic'; standardiser: Standardiser; intercept: number; coefficients: number[] };

const sigmoid = (value: number) => 1 / (1 + Math.exp(-value));

function solve(matrix: number[][], vector: number[]): number[] {
  // Gaussian elimination with partial pivoting on a copy; the ridge keeps the matrix positive definite.
  const size = vector.length;
  const a = matrix.map((row, index) => [...row, vector[index]!]);
  for (let column = 0; column < size; column += 1) {
    let pivot = column;
    for (let row = column + 1; row < size; row += 1) if (Math.abs(a[row]![column]!) > Math.abs(a[pivot]![column]!)) pivot = row;
    [a[column], a[pivot]] = [a[pivot]!, a[column]!];
    for (let row = column + 1; row < size; row += 1) {
      const factor = a[row]![column]! / a[column]![column]!;
      for (let k = column; k <= size; k += 1) a[row]![k]! -= factor * a[column]![k]!;
    }
  }
  const solution = new Array<number>(size).fill(0);
  for (let row = size - 1; row >= 0; row -= 1) {
    let total = a[row]![size]!;
    for (let k = row + 1; k < size; k += 1) total -= a[row]![k]! * solution[k]!;
    solution[row] = total / a[row]![row]!;
  }
  return solution;
}

export function trainLogistic(options: {
  features: Float64Array;
  labels: Uint8Array;
  width: number;
  ridge?: number;
  maximumIterations?: number;
}): LogisticModel {
  const { labels, width } = options;
  const ridge = options.ridge ?? 1;
  const standardiser = fitStandardiser(options.features, width);
  const x = standardise(options.features, standardiser);
  const rows = labels.length;
  const size = width + 1; // intercept last
  const weights = new Array<number>(size).fill(0);
  for (let iteration = 0; iteration < (options.maximumIterations ?? 25); iteration += 1) {
    const gradient = new Array<number>(size).fill(0);
    const hessian = Array.from({ length: size }, () => new Array<number>(size).fill(0));
    const row = new Float64Array(size);
    for (let r = 0; r < rows; r += 1) {
      let eta = weights[width]!;
      for (let c = 0; c < width; c += 1) {
        row[c] = x[r * width + c]!;
        eta += weights[c]! * row[c]!;
      }
      row[width] = 1;
      const p = sigmoid(eta);
      const residual = p - labels[r]!;
      const w = p * (1 - p);
      for (let i = 0; i < size; i += 1) {
        const ri = row[i]!;
        if (ri === 0) continue;
        gradient[i]! += residual * ri;
        const wri = w * ri;
        const hessianRow = hessian[i]!;
        for (let j = 0; j <= i; j += 1) hessianRow[j]! += wri * row[j]!;
      }
    }
    for (let i = 0; i < size; i += 1) {
      for (let j = 0; j < i; j += 1) hessian[j]![i] = hessian[i]![j]!;
      // The intercept is not penalised.
      if (i < width) {
        hessian[i]![i]! += ridge;
        gradient[i]! += ridge * weights[i]!;
      }
    }
    const step = solve(hessian, gradient);
    let largest = 0;
    for (let i = 0; i < size; i += 1) {
      weights[i]! -= step[i]!;
      largest = Math.max(largest, Math.abs(step[i]!));
    }
    if (largest < 1e-8) break;
  }
  return { kind: 'logistic', standardiser, intercept: weights[width]!, coefficients: weights.slice(0, width) };
}

export function predictLogistic(model: LogisticModel, features: Float64Array): Float64Array {
  const width = model.coefficients.length;
  const rows = features.length / width;
  const out = new Float64Array(rows);
  const { means, scales } = model.standardiser;
  for (let r = 0; r < rows; r += 1) {
    let eta = model.intercept;
    for (let c = 0; c < width; c += 1) eta += model.coefficients[c]! * standardisedValue(features[r * width + c]!, means[c]!, scales[c]!);
    out[r] = sigmoid(eta);
  }
  return out;
}

/** Each feature's push on one patient's log-odds against the average training row (coefficient × standardised value). */
export function contributions(model: LogisticModel, features: Float64Array): number[] {
  const { means, scales } = model.standardiser;
  return model.coefficients.map((coefficient, c) => coefficient * standardisedValue(features[c]!, means[c]!, scales[c]!));
}
