// Writes public/sounds/notification.wav: the short chime of spec 001 §9 ("A notification sound is
// played on alerts"; the original file is not given). Two soft sine notes (E6 then A6) with a fast
// attack and an exponential decay, 16-bit mono at 22.05 kHz: about 17 KB, no licence questions.
// Run with `node scripts/generate-notification-sound.mjs`; the output is committed.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SAMPLE_RATE = 22_050;
const DURATION_S = 0.4;
const NOTES = [
  { frequency: 1318.51, start: 0, length: 0.22, gain: 0.32 },
  { frequency: 1760.0, start: 0.1, length: 0.3, gain: 0.26 },
];

const frames = Math.round(SAMPLE_RATE * DURATION_S);
const samples = new Float64Array(frames);
for (const note of NOTES) {
  const first = Math.round(note.start * SAMPLE_RATE);
  const count = Math.round(note.length * SAMPLE_RATE);
  for (let index = 0; index < count && first + index < frames; index += 1) {
    const time = index / SAMPLE_RATE;
    const attack = Math.min(1, time / 0.006);
    const decay = Math.exp(-time / (note.length / 4.5));
    // A quiet octave overtone makes it a chime rather than a beep.
    const tone = Math.sin(2 * Math.PI * note.frequency * time) + 0.18 * Math.sin(4 * Math.PI * note.frequency * time);
    samples[first + index] += note.gain * attack * decay * tone;
  }
}

const data = Buffer.alloc(frames * 2);
for (let index = 0; index < frames; index += 1) {
  const value = Math.max(-1, Math.min(1, samples[index] ?? 0));
  data.writeInt16LE(Math.round(value * 32_767), index * 2);
}

const header = Buffer.alloc(44);
header.write('RIFF', 0);
header.writeUInt32LE(36 + data.length, 4);
header.write('WAVE', 8);
header.write('fmt ', 12);
header.writeUInt32LE(16, 16); // PCM chunk size
header.writeUInt16LE(1, 20); // PCM
header.writeUInt16LE(1, 22); // mono
header.writeUInt32LE(SAMPLE_RATE, 24);
header.writeUInt32LE(SAMPLE_RATE * 2, 28); // byte rate
header.writeUInt16LE(2, 32); // block align
header.writeUInt16LE(16, 34); // bits per sample
header.write('data', 36);
header.writeUInt32LE(data.length, 40);

const target = path.resolve(import.meta.dirname, '../public/sounds/notification.wav');
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, Buffer.concat([header, data]));
console.log(`wrote ${path.relative(process.cwd(), target)} (${header.length + data.length} bytes)`);
