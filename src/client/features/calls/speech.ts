/**
 * The browser's speech recognition (Web Speech API: webkitSpeechRecognition in Chromium, Edge and
 * Safari). Continuous, final results only; it stops by itself after silence or a network hiccup,
 * so it is restarted until stopped. Absent (Firefox, headless Chromium): speechRecognitionSupported
 * is false and the call screen says subtitles of one's own speech need such a browser.
 */
interface RecognitionResultList {
  length: number;
  [i: number]: { isFinal: boolean; 0: { transcript: string } };
}
interface Recognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((e: { resultIndex: number; results: RecognitionResultList }) => void) | null;
  onend: (() => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  start(): void;
  stop(): void;
}
type RecognitionCtor = new () => Recognition;

function recognitionCtor(): RecognitionCtor | null {
  const w = globalThis as unknown as { SpeechRecognition?: RecognitionCtor; webkitSpeechRecognition?: RecognitionCtor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

export const speechRecognitionSupported = () => recognitionCtor() !== null;

/** The recogniser's tag for one of our interface languages. */
export const SPEECH_TAGS: Record<string, string> = { en: 'en-US', pt: 'pt-BR', es: 'es-ES', it: 'it-IT', de: 'de-DE' };

/** Starts listening in `lang`; each final result goes to `onFinal`. Returns stop. */
export function listen(lang: string, onFinal: (text: string, lang: string) => void): () => void {
  const Ctor = recognitionCtor();
  if (!Ctor) return () => {};
  let stopped = false;
  let failures = 0;
  const recognition = new Ctor();
  recognition.lang = lang;
  recognition.continuous = true;
  recognition.interimResults = false;
  recognition.onresult = (e) => {
    failures = 0;
    for (let i = e.resultIndex; i < e.results.length; i++) {
      const r = e.results[i]!;
      const text = r[0].transcript.trim();
      if (r.isFinal && text) onFinal(text, lang);
    }
  };
  recognition.onerror = (e) => {
    // Refused microphone or service: restarting would only fail again.
    if (e.error === 'not-allowed' || e.error === 'service-not-allowed') stopped = true;
    else failures += 1;
  };
  recognition.onend = () => {
    if (stopped || failures > 5) return;
    try {
      recognition.start();
    } catch {
      /* already started */
    }
  };
  recognition.start();
  return () => {
    stopped = true;
    recognition.stop();
  };
}
