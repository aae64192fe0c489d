// Trained models of this process, by classifier and model version: a classify call reads the
// classifier's row (tenant check, current version) and parses the model JSON only when the version
// is new to this process. A retrained model has a new version, so the old entry is never served.
import { indexOf, type SoftmaxModel } from '../models/softmax.model.js';

export interface LoadedModel {
  version: number;
  model: SoftmaxModel;
  index: Map<string, number>;
}

export class ClassifierModelCache {
  private readonly entries = new Map<string, LoadedModel>();

  constructor(private readonly capacity = 200) {}

  get(id: string, version: number): LoadedModel | undefined {
    const e = this.entries.get(id);
    if (!e || e.version !== version) return undefined;
    this.entries.delete(id);
    this.entries.set(id, e);
    return e;
  }

  put(id: string, version: number, model: SoftmaxModel): LoadedModel {
    const e = { version, model, index: indexOf(model) };
    this.entries.delete(id);
    this.entries.set(id, e);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return e;
  }
}
