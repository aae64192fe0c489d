// Detection on darknet's sample photos (/usr/share/darknet/data, Debian `darknet`) at the default
// threshold: one label per box, the horse behind the girl in person.jpg kept and labelled horse, nothing in the
// painting (scream.jpg), and what each photo answers.
import { readFileSync } from 'node:fs';
import { DETECT_MIN_CONFIDENCE, iou, loadImage, SAME_THING_IOU, Vision } from '../../lib/vision/index.js';
import type { Row } from './row.js';

const DIR = '/usr/share/darknet/data';

export async function run(): Promise<Row[]> {
  const vision = new Vision({});
  try {
    const detect = async (name: string) => vision.detect(await loadImage({ bytes: readFileSync(`${DIR}/${name}.jpg`) }, { allowPrivate: false }));
    const rows: Row[] = [];
    let twoLabels = 0;
    let horse = false;
    let scream = -1;
    for (const name of ['person', 'horses', 'dog', 'kite', 'giraffe', 'eagle', 'scream']) {
      const objects = await detect(name);
      for (let i = 0; i < objects.length; i++) for (let j = i + 1; j < objects.length; j++) if (iou(objects[i].bbox, objects[j].bbox) >= SAME_THING_IOU) twoLabels++;
      // darknet's reference box of the horse in person.jpg: x ≈ 400–600, y ≈ 135–345
      if (name === 'person') horse = objects.some((o) => o.label === 'horse' && o.bbox.x > 350 && o.bbox.width > 150);
      if (name === 'scream') scream = objects.length;
      const counts = new Map<string, number>();
      for (const o of objects) counts.set(o.label, (counts.get(o.label) ?? 0) + 1);
      rows.push({ figure: `detection ${name}.jpg (default ${DETECT_MIN_CONFIDENCE})`, value: [...counts].map(([l, n]) => `${l}×${n}`).join(', ') || 'nothing', target: '', pass: null });
    }
    return [
      { figure: 'detection: the horse in person.jpg kept, labelled horse', value: horse ? 'horse' : 'missing or mislabelled', target: 'horse', pass: horse },
      { figure: 'detection: boxes answered with two labels', value: String(twoLabels), target: '0', pass: twoLabels === 0 },
      { figure: 'detection: objects in scream.jpg (a painting)', value: String(scream), target: '0', pass: scream === 0 },
      ...rows,
    ];
  } finally {
    await vision.stop();
  }
}
