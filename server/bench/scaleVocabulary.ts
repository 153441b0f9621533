/**
 * The words of the scale bench's tickets and of its searches: a few thousand, ranked so that drawing
 * rank r with probability ~1/r (Zipf) gives a long tail, as real ticket text has. Function words come
 * first (in nearly every ticket), then the everyday words of a service desk, then their inflected
 * forms and the names of products, places and teams. Codes (error codes, asset tags, knowledge base
 * numbers) are a list of their own, a few thousand, each in a few hundred tickets.
 *
 * Deterministic: the same list, in the same order, on every run, so a kept data set and the
 * questions asked of it agree. "printer" is not in it: the generator mentions it in a fixed share of
 * tickets, as older figures did, and RARE_WORD / ABSENT_WORD are kept out for the same reason.
 */

/** Appears in 0.01% of tickets; and a word no ticket contains. */
export const RARE_WORD = 'tachograph';
export const ABSENT_WORD = 'xylophone';

const FUNCTION_WORDS = `the to and a i it is of in on my for not with this that be have when but can we from
  at as was are since after again our me please you an so do there or all now by get no any will still
  also just if has one some out up they been only would could`;

const VERBS = `connect open start restart install update upgrade reset change print scan load save send
  receive sync log sign access share move copy delete remove add create request order replace repair
  fix check test show display freeze crash hang drop fail work run close launch respond lock unlock
  block allow enable disable configure setup map mount charge boot shut upload download attach forward
  reply accept reject approve expire renew migrate restore backup encrypt decrypt register transfer
  export import merge split rename archive search find lose recover refresh reinstall uninstall
  activate deactivate verify confirm schedule cancel book join mute record stream pair plug unplug
  flicker overheat beep vibrate stutter lag disconnect reconnect redirect bounce delay queue jam
  report escalate assign reopen resolve close investigate monitor patch rollback deploy release
  provision onboard offboard authorize authenticate`;

const NOUNS = `laptop computer desktop screen monitor keyboard mouse dock docking station charger battery cable
  adapter headset webcam camera microphone speaker phone mobile tablet tray toner cartridge paper
  scanner copier projector display port socket plug router switch firewall network wifi connection
  internet vpn proxy server database drive disk folder file document spreadsheet presentation
  attachment email mailbox inbox calendar invite meeting room account password login session token
  code certificate licence license subscription update patch version driver firmware software
  application app browser website page portal link form report invoice order payment receipt budget
  expense timesheet payroll contract policy ticket request issue problem error message warning alert
  notification reminder backup restore archive permission access group role team department office
  floor desk building site branch warehouse reception kitchen meeting badge door lift parking visitor
  user manager colleague customer supplier vendor contractor intern starter leaver admin engineer
  technician morning afternoon evening night weekend week month quarter year today yesterday tomorrow
  hour minute second time date deadline schedule shift holiday leave absence training course video
  call conference chat channel thread post comment note question answer reply feedback survey
  screenshot photo image icon button menu window tab toolbar setting option profile signature font
  template macro formula cell column row table chart graph dashboard query export import sync cloud
  storage space quota limit size speed performance memory processor fan noise heat power outlet
  light screen glass hinge case bag lock key card reader pin code fingerprint face ticket queue
  number extension voicemail line headset handset cradle trunk carrier signal bar coverage roaming
  plan bill charge credit refund discount price quote estimate approval signoff handover procedure
  process workflow step stage status priority category label tag field value record entry list
  item stock asset inventory serial model brand make colour color size shape weight label sticker`;

const ADJECTIVES = `slow fast broken blank black white red yellow green blue grey empty full missing wrong
  old new shared personal private public remote local external internal wireless wired offline
  online urgent important minor major intermittent random constant frequent daily weekly monthly
  annual corrupted encrypted locked expired invalid valid unknown strange weird loud quiet hot cold
  small large huge tiny double single multiple several entire whole partial duplicate previous
  current latest next last first second third main secondary primary backup spare temporary
  permanent manual automatic default custom standard premium basic free paid blocked allowed denied
  pending approved rejected stuck frozen grey greyed faded streaky noisy dim bright flickering sticky
  loose cracked damaged wet dusty dirty clean stable unstable secure insecure suspicious unusual`;

const NAMES = `outlook teams excel word powerpoint onenote sharepoint onedrive windows macos linux ubuntu
  android iphone ipad chrome firefox edge safari zoom slack webex jira confluence salesforce sap
  oracle workday xero sage quickbooks adobe acrobat photoshop illustrator autocad solidworks matlab
  tableau citrix vmware okta duo azure intune jamf dropbox box gmail yubikey lenovo dell thinkpad
  latitude macbook surface logitech jabra plantronics cisco meraki ubiquiti netgear fortinet
  sophos crowdstrike defender bitlocker filevault kerberos ldap radius dhcp dns smtp imap exchange
  london paris berlin madrid dublin lisbon warsaw prague vienna zurich oslo stockholm helsinki
  amsterdam brussels milan rome athens istanbul cairo nairobi lagos dubai mumbai delhi singapore
  tokyo seoul sydney auckland toronto chicago boston denver austin seattle atlanta miami dallas
  finance payroll marketing sales legal procurement logistics facilities security compliance audit
  engineering research design operations support training recruitment reception warehouse`;

/** A seeded generator (mulberry32), so the list is the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const split = (s: string) => s.split(/\s+/).filter(Boolean);

function verbForms(verb: string): string[] {
  const stem = verb.endsWith('e') ? verb.slice(0, -1) : verb;
  const ing = verb.endsWith('e') && !verb.endsWith('ee') ? `${stem}ing` : `${verb}ing`;
  const ed = verb.endsWith('e') ? `${verb}d` : verb.endsWith('y') && !/[aeiou]y$/.test(verb) ? `${verb.slice(0, -1)}ied` : `${verb}ed`;
  const s = /(s|sh|ch|x)$/.test(verb)
    ? `${verb}es`
    : verb.endsWith('y') && !/[aeiou]y$/.test(verb)
      ? `${verb.slice(0, -1)}ies`
      : `${verb}s`;
  return [s, ed, ing];
}

const plural = (noun: string) =>
  /(s|sh|ch|x)$/.test(noun) ? `${noun}es` : noun.endsWith('y') && !/[aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`;

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The codes of the tail: each in a few tickets, as an error code or an asset tag is. */
function codes(random: () => number, count: number): string[] {
  const hex = () =>
    Math.floor(random() * 0x10000)
      .toString(16)
      .padStart(4, '0');
  const digits = (n: number) => String(Math.floor(random() * 10 ** n)).padStart(n, '0');
  const kinds = [
    () => `0x8007${hex()}`,
    () => `kb${digits(7)}`,
    () => `lt-${digits(5)}`,
    () => `srv-${['fin', 'hr', 'ops', 'dev', 'mkt', 'sec', 'app', 'db'][Math.floor(random() * 8)]}-${digits(3)}`,
    () => `err${digits(4)}`,
    () => `inc${digits(6)}`,
    () => `po${digits(6)}`,
    () => `ext${digits(4)}`,
  ];
  const out = new Set<string>();
  while (out.size < count) out.add(kinds[Math.floor(random() * kinds.length)]!());
  return [...out];
}

function build(): { words: string[]; functionWords: number; codes: string[] } {
  const random = seededRandom(20_261_124);
  const functionWords = split(FUNCTION_WORDS);
  const verbs = split(VERBS);
  const nouns = split(NOUNS);
  const base = [...new Set([...verbs, ...nouns, ...split(ADJECTIVES)])];
  const derived = [...new Set([...verbs.flatMap(verbForms), ...nouns.map(plural), ...split(NAMES)])];
  const ordered = [
    ...functionWords,
    ...shuffle(base, random),
    ...shuffle(
      derived.filter((w) => !base.includes(w)),
      random,
    ),
  ];
  const excluded = ['printer', RARE_WORD, ABSENT_WORD];
  const seen = new Set<string>();
  const words = ordered.filter((w) => {
    if (seen.has(w) || excluded.some((x) => w.includes(x))) return false;
    seen.add(w);
    return true;
  });
  return { words, functionWords: functionWords.length, codes: codes(random, 4000) };
}

const built = build();

/** Every word, most frequent first. */
export const VOCABULARY: readonly string[] = built.words;
/** Error codes, asset tags, knowledge base and order numbers: a ticket in three names one, each in a few hundred tickets. */
export const CODES: readonly string[] = built.codes;
/** How many of the first words are function words: in most tickets, never a search. */
export const FUNCTION_WORD_COUNT = built.functionWords;

/** A rank in [1, n] with P(r) ~ 1/r: the inverse of the continuous Zipf law's distribution. */
export const zipfRank = (n: number, u: number) => Math.min(n, Math.max(1, Math.floor((n + 1) ** u)));
