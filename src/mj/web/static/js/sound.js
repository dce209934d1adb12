// The turn sound: a short two-note tone made with Web Audio (no sound file to fetch).
// Browsers start audio only after the page has had a click or a key; before that it is silent.

let context = null;

export function beep() {
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  try {
    context = context || new Audio();
    if (context.state === 'suspended') context.resume();
    const start = context.currentTime;
    [660, 880].forEach((frequency, i) => {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.type = 'sine';
      tone.frequency.value = frequency;
      const at = start + i * 0.09;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.15, at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
      tone.connect(gain).connect(context.destination);
      tone.start(at);
      tone.stop(at + 0.13);
    });
  } catch {
    // no audio device: play on without sound
  }
}
