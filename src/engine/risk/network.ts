/**
 * The small neural network: two hidden layers (16 and 8 ReLU units) and a sigmoid output, trained with
 * TensorFlow.js layers on the pure-JavaScript CPU backend (no native build). Reproducible: kernel
 * initialisers are seeded, biases start at 0, there is no dropout, and the rows are shuffled by our own
 * seeded generator (tfjs's `fit` shuffles with Math.random, so training runs `trainOnBatch` on batches we
 * cut). The trained weights are kept as plain arrays; `predictNetwork` runs the forward pass by hand in
 * double precision, so evaluation and scoring give identical numbers and scoring needs no TensorFlow.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import * as tfl from '@tensorflow/tfjs-layers';
import { fitStandardiser, standardise, standardisedValue, type Standardiser } from './standardise';

export type DenseLayer = { kernel: number[][]; bias: number[]; activation: 'relu' | 'sigmoid' };
export type NetworkModel = { kind: 'network'; standardiser: Standardiser; layers: DenseLayer[] };
export type EpochLoss = { epoch: number; trainingLoss: number; heldOutLoss: number | null };

export const networkSettings = { hiddenUnits: [16, 8], epochs: 10, batchSize: 512, learningRate: 0.003 } as const;

let backendReady: Promise<void> | null = null;
/** The CPU backend, once; PROD mode keeps tfjs from printing its "install tfjs-node" advice on every run. */
export function ensureCpuBackend(): Promise<void> {
  backendReady ??= (async () => {
    tf.env().set('PROD', true);
    await tf.setBackend('cpu');
  })();
  return backendReady;
}

/** mulberry32: a tiny seeded generator for the shuffle. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function logLoss(probabilities: Float64Array, labels: Uint8Array): number {
  let total = 0;
  for (let index = 0; index < labels.length; index += 1) {
    const p = Math.min(1 - 1e-7, Math.max(1e-7, probabilities[index]!));
    total -= labels[index] === 1 ? Math.log(p) : Math.log(1 - p);
  }
  return total / Math.max(1, labels.length);
}

export async function trainNetwork(options: {
  features: Float64Array;
  labels: Uint8Array;
  width: number;
  seed: number;
  /** Rows whose loss is reported after each epoch (for the training curve only; never used to choose anything). */
  heldOut?: { features: Float64Array; labels: Uint8Array };
  onEpoch?: (loss: EpochLoss, epochs: number) => void | Promise<void>;
}): Promise<{ model: NetworkModel; curve: EpochLoss[] }> {
  await ensureCpuBackend();
  const { labels, width, seed } = options;
  const standardiser = fitStandardiser(options.features, width);
  const x = standardise(options.features, standardiser);
  const rows = labels.length;
  const units = [...networkSettings.hiddenUnits, 1];
  const model = tfl.sequential();
  units.forEach((count, index) => {
    model.add(
      tfl.layers.dense({
        units: count,
        ...(index === 0 ? { inputShape: [width] } : {}),
        activation: index === units.length - 1 ? 'sigmoid' : 'relu',
        kernelInitializer:
          index === units.length - 1
            ? tfl.initializers.glorotUniform({ seed: seed + index })
            : tfl.initializers.heUniform({ seed: seed + index }),
        biasInitializer: 'zeros',
      }),
    );
  });
  model.compile({ optimizer: tf.train.adam(networkSettings.learningRate), loss: 'binaryCrossentropy' });
  const random = seededRandom(seed);
  const order = Int32Array.from({ length: rows }, (_, index) => index);
  const curve: EpochLoss[] = [];
  const { batchSize, epochs } = networkSettings;
  const batchX = new Float32Array(batchSize * width);
  const batchY = new Float32Array(batchSize);
  try {
    for (let epoch = 1; epoch <= epochs; epoch += 1) {
      for (let index = rows - 1; index > 0; index -= 1) {
        const swap = Math.floor(random() * (index + 1));
        [order[index], order[swap]] = [order[swap]!, order[index]!];
      }
      let lossTotal = 0;
      for (let start = 0; start < rows; start += batchSize) {
        const count = Math.min(batchSize, rows - start);
        for (let k = 0; k < count; k += 1) {
          const row = order[start + k]!;
          batchX.set(x.subarray(row * width, row * width + width), k * width);
          batchY[k] = labels[row]!;
        }
        const xs = tf.tensor2d(batchX.subarray(0, count * width), [count, width]);
        const ys = tf.tensor2d(batchY.subarray(0, count), [count, 1]);
        const loss = await model.trainOnBatch(xs, ys);
        xs.dispose();
        ys.dispose();
        lossTotal += (Array.isArray(loss) ? loss[0]! : loss) * count;
      }
      const current = toNetworkModel(model, standardiser);
      const heldOutLoss =
        options.heldOut === undefined ? null : logLoss(predictNetwork(current, options.heldOut.features), options.heldOut.labels);
      const entry = { epoch, trainingLoss: lossTotal / Math.max(1, rows), heldOutLoss };
      curve.push(entry);
      await options.onEpoch?.(entry, epochs);
    }
    return { model: toNetworkModel(model, standardiser), curve };
  } finally {
    model.dispose();
  }
}

function toNetworkModel(model: tfl.Sequential, standardiser: Standardiser): NetworkModel {
  const layers = model.layers.map((layer, index) => {
    const [kernel, bias] = layer.getWeights();
    return {
      kernel: kernel!.arraySync() as number[][],
      bias: bias!.arraySync() as number[],
      activation: index === model.layers.length - 1 ? ('sigmoid' as const) : ('relu' as const),
    };
  });
  return { kind: 'network', standardiser, layers };
}

export function predictNetwork(model: NetworkModel, features: Float64Array): Float64Array {
  const { means, scales } = model.standardiser;
  const width = means.length;
  const rows = features.length / width;
  const out = new Float64Array(rows);
  const input = new Float64Array(width);
  const buffers = model.layers.map((layer) => new Float64Array(layer.bias.length));
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < width; c += 1) input[c] = standardisedValue(features[r * width + c]!, means[c]!, scales[c]!);
    let current = input;
    model.layers.forEach((layer, index) => {
      const next = buffers[index]!;
      for (let u = 0; u < layer.bias.length; u += 1) {
        let total = layer.bias[u]!;
        for (let i = 0; i < current.length; i += 1) total += current[i]! * layer.kernel[i]![u]!;
        next[u] = layer.activation === 'relu' ? Math.max(0, total) : 1 / (1 + Math.exp(-total));
      }
      current = next;
    });
    out[r] = current[0]!;
  }
  return out;
}
