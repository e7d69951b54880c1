// Words a shopper's question is made of that say nothing about which section answers it, in English and German:
// the function words of Snowball's stop lists for both languages (snowballstem.org), and the filler of a chat
// message ("hi", "thanks", "can you tell me", "ich hätte eine Frage"). The catalog's own stop list is shorter: a
// product query is a few keywords, a question to the store is a sentence. Ranking needs these gone for one reason
// above all: a section answers a question when it holds the question's words (knowledge-index.ts, "coverage"), and
// "can", "habt" or "hello" would count as words no section holds.
//
// Words as the catalog tokenizer gives them: lowercased runs of letters and digits ("don't" is "don" and "t").

const ENGLISH =
  'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
  'it its itself they them their theirs themselves what which who whom this that these those am is are was were be ' +
  'been being have has had having do does did doing would should could ought a an the and but if or because as ' +
  'until while of at by for with about against between into through during before after above below to from up ' +
  'down in out on off over under again further then once here there when where why how all any both each few more ' +
  'most other some such no nor not only own same so than too very can will just don t s m re ve ll d didn doesn ' +
  'isn aren wasn won cannot cant dont im ive also may might must shall';

const ENGLISH_CHAT =
  'hi hello hey hiya thanks thank thx ty please pls plz ok okay yes yeah yep nope hmm dear sir madam guys folks ' +
  'question questions ask asking wondering wonder know tell help need like want wanna get u ur r anyone something ' +
  'anything possible maybe quick kindly regards long much many take takes whats hows wheres';

const GERMAN =
  'aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes anders auch auf aus ' +
  'bei bin bis bist da damit dann der den des dem die das dass daß du dies diese diesem diesen dieser dieses dich dir ' +
  'doch dort durch ein eine einem einen einer eines einig einige einigem einigen einiger einiges einmal er ihn ihm es ' +
  'etwas euer eure eurem euren eurer eures euch für gegen gewesen hab habe haben hat hatte hatten hast habt hier hin ' +
  'hinter ich mich mir ihr ihre ihrem ihren ihrer ihres im in indem ins ist jede jedem jeden jeder jedes jene jenem ' +
  'jenen jener jenes jetzt kann kannst könnt können könnte kein keine keinem keinen keiner keines man manche ' +
  'manchem manchen mancher manches mein meine meinem meinen meiner meines mit muss musste nach nicht nichts noch nun ' +
  'nur ob oder ohne sehr sein seine seinem seinen seiner seines selbst sich sie ihnen sind so solche solchem solchen ' +
  'solcher solches soll sollte sondern sonst über um und uns unsere unserem unseren unser unseres unter viel vom von ' +
  'vor während war waren warst was weg weil weiter welche welchem welchen welcher welches wenn werde werden wie ' +
  'wieder will wir wird wirst wo wollen wollte würde würden zu zum zur zwar zwischen wann warum wer wieso weshalb';

const GERMAN_CHAT =
  'hallo hey moin servus guten tag danke dankeschön vielen bitte gern gerne ja nein frage fragen mal eigentlich ' +
  'bzw ca wissen sagen möchte möchten wäre gibt gibts gäbe brauche bräuchte kurze kurz jemand irgendwie ' +
  'lange dauert dauern viele hätte hätten lautet tun tue tut getan möglich';

/** Question words that never count towards a section (lowercase, as the tokenizer gives them). */
export const QUESTION_STOP_WORDS: ReadonlySet<string> = new Set(
  [ENGLISH, ENGLISH_CHAT, GERMAN, GERMAN_CHAT].join(' ').split(' '),
);
