// Korean particles after a name the client fills in (issue 26). A Korean string writes a
// particle both ways, "{name}이(가)", because the name is not known when it is translated; once
// it is, the particle is the one the name's last sound takes: 성을, 시장을, 도시로,
// 봇 2 (보통)와 (an aside in brackets is skipped: the name ends in «2», read 이), 30으로 (a
// number is read in Sino-Korean). After a name whose sound cannot be known (Latin letters,
// symbols) both forms stay. The server does the same for its own texts
// (citadels.present.i18n.korean_particles); a browser test holds the two to the same answers.

const PARTICLE = /을\(를\)|이\(가\)|은\(는\)|와\(과\)|\(으\)로/g;
/** The form after a final consonant, then the form after a vowel. */
const FORMS = {
  "을(를)": ["을", "를"],
  "이(가)": ["이", "가"],
  "은(는)": ["은", "는"],
  "와(과)": ["과", "와"],
};
// The final consonant (jongseong index, 0 for none) of each digit read in Sino-Korean:
// 영, 일, 이, 삼, 사, 오, 육, 칠, 팔, 구.
const DIGIT_FINALS = [21, 8, 0, 16, 0, 0, 1, 8, 8, 0];
// The final consonant of a number ending in zeros, by their count: 십, 백, 천, 만 (4–7
// zeros), 억 (8–11), 조 (12 and more).
const ZEROS_FINALS = [null, 17, 1, 4, 4, 4, 4, 4, 1, 1, 1, 1, 0];
const CLOSING_QUOTES = "\"'»”’」』〉》";
const BRACKETS = { ")": "(", "]": "[", "）": "（" };
// Invisible marks the client puts around a filled-in name (isolates) or a script may hold.
const INVISIBLE = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const isDigit = (c) => c >= "0" && c <= "9";

/** The final consonant the end of ``text`` is read with (0: a vowel), or null when it cannot be
 * known. */
function finalOf(raw) {
  let text = raw.replace(INVISIBLE, "");
  let end = text.length;
  while (end) {
    const last = text[end - 1];
    if (CLOSING_QUOTES.includes(last)) {
      end -= 1;
    } else if (Object.hasOwn(BRACKETS, last)) {
      const opening = text.lastIndexOf(BRACKETS[last], end - 2);
      if (opening <= 0) return null;
      text = text.slice(0, opening).trimEnd();
      end = text.length;
    } else {
      break;
    }
  }
  if (!end) return null;
  const last = text[end - 1];
  if (last >= "\uac00" && last <= "\ud7a3") return (last.charCodeAt(0) - 0xac00) % 28;
  if (!isDigit(last)) return null;
  let start = end;
  while (start && isDigit(text[start - 1])) start -= 1;
  const digits = text.slice(start, end);
  const stripped = digits.replace(/0+$/, "");
  if (!stripped) return DIGIT_FINALS[0];
  const zeros = digits.length - stripped.length;
  if (!zeros) return DIGIT_FINALS[Number(stripped[stripped.length - 1])];
  return ZEROS_FINALS[Math.min(zeros, ZEROS_FINALS.length - 1)];
}

/** ``text`` with each two-way particle made the one its noun takes. */
export function koreanParticles(text) {
  let out = "";
  let done = 0;
  for (const match of text.matchAll(PARTICLE)) {
    out += text.slice(done, match.index);
    done = match.index + match[0].length;
    const particle = match[0];
    const final = finalOf(text.slice(0, match.index));
    if (final === null) out += particle;
    else if (particle === "(으)로") out += final === 0 || final === 8 ? "로" : "으로";
    else out += final ? FORMS[particle][0] : FORMS[particle][1];
  }
  return out + text.slice(done);
}
