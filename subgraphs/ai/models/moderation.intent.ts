// Intent rules of text moderation (moderation.ts): who + a future or imperative verb + a harm,
// harm aimed at oneself, insults aimed at the reader, and the contexts that lower them (reporting,
// technical, clinical, fiction and sport). Each rule adds its weight to a category's sum, as in
// moderation.lexicon.ts; a category's rule score is 1 − e^(−sum).
import type { Rule } from './moderation.lexicon.js';

const HARM =
  '(?:kill|murder|shoot|stab|hurt|beat(?: up)?|strangle|choke|burn|torch|bomb|firebomb|blow up|smash|crack|bash|slit|gut|bleed|torture|execute|poison|run (?:\\w+ )?over|kidnap|drown|attack|lynch|rape|punch|kick|stomp|break|rip|cave|bury|hunt|jump|end|slash|throw acid|put a bullet|make (?:\\w+ )?(?:pay|bleed|suffer))';
const FUTURE = "(?:will|'ll|shall|am going to|'m going to|are going to|'re going to|is going to|gonna|want to|wanna|plan(?:ning)? to|am about to|intend to|should|need to|must|'m coming to|am coming to)";
const WHO = "(?:i|we|i'm|we're|somebody|someone|they)";
const TARGET = '(?:you|u|him|her|them|his|your|their|every|everyone|anyone|the|that|those|this|a|my (?:ex|boss|wife|husband|teacher|neighbou?r))';
/** People as the object of a harm (a process, a bug or a dragon is not one). */
const PERSON =
  "(?:you|u|him|her|them|everyone|everybody|anyone|anybody|whoever|every (?:one|single|hostage|last)|(?:your|his|her|their|my) (?:family|kids|children|wife|husband|mother|mom|dad|brother|sister|son|daughter|ex|boss|friends?|neighbou?rs?)|(?:your|his|her|their|my) (?:\\w+ )?(?:legs?|arms?|face|skull|head|teeth|ribs|bones?|fingers|kneecaps|neck|throat|body)|the (?:traitor|snitch|guards|hostages?|witness|teacher|judge|cops|police|kid|new kid|old man|mayor)|(?:some|all the|those|these) (?:people|cops|kids|guys))";
const SELF = '(?:myself|my (?:life|wrists?|arms?|legs?|thighs?|skin|own life))';

/** Threats and calls to violence against others. */
export const INTENT_VIOLENCE: Rule[] = [
  // who + future verb + (up to three words) + harm + a target: "I'm going to find you after work and break your legs"
  { re: new RegExp(`\\b${WHO}\\s*${FUTURE}\\s+(?:\\w+\\s+){0,6}?${HARM}\\s+${PERSON}\\b`, 'giu'), weight: 1.6, strong: true },
  { re: new RegExp(`\\b${WHO}\\s*${FUTURE}\\s+(?:\\w+\\s+){0,6}?${HARM}\\b(?!\\s+(?:myself|my life|it all))`, 'giu'), weight: 1.0 },
  // imperative at the start of a clause: "Kill the traitor…", "Go stab the snitch…", "Let's go shoot…"
  { re: new RegExp(`(?:^|[.!?;,]\\s*)(?:(?:go|let's|let us|now)\\s+)?(?:go\\s+)?${HARM}\\s+${PERSON}\\b`, 'giu'), weight: 1.4, strong: true },
  { re: new RegExp(`(?:^|[.!?;,]\\s*)(?:(?:go|let's|let us|now)\\s+)?(?:go\\s+)?${HARM}\\s+${TARGET}\\b`, 'giu'), weight: 1.0 },
  // conditional threats: "if you…, I'll…", "or I will…", "one more word and…"
  { re: /\b(?:or|and|then|before) (?:i|we)(?:'ll| will| am going to| are going to)\b/giu, weight: 0.6 },
  { re: /\b(?:you're|you are|ur) (?:dead|dead meat|going to die|gonna die|finished)\b|\bwatch your back\b|\bsleep with one eye open\b|\bwon't live to\b|\bfind you in a ditch\b|\bleave in an ambulance\b/giu, weight: 1.8, strong: true },
  { re: /\b(?:bring(?:ing)?|grab|get(?:ting)?) (?:a |the |my |his |my dad's )?(?:guns?|knife|knives|machete|rifle|pistol|crowbar|bats?|hammer|bomb)\b/giu, weight: 1.0 },
  { re: /\b(?:break|smash|crack|bash|cave) (?:your|his|her|their|every) (?:\w+ )?(?:legs?|arms?|face|skull|head|teeth|ribs|bones?|fingers|kneecaps|neck)\b|\b(?:in|on) (?:your|his|her) (?:head|face)\b/giu, weight: 1.2 },
];

/** Harm aimed at oneself: intent, plans and methods. */
export const INTENT_SELF_HARM: Rule[] = [
  { re: new RegExp(`\\b(?:kill|hurt|cut|burn|starve|hang|shoot|harm|punish|hit|poison|drown) ${SELF}\\b|\\bend(?:ing)? (?:my (?:own )?life|it all)\\b|\\btake my (?:own )?life\\b|\\bwould kill me\\b|\\b(?:want|going) to die\\b`, 'giu'), weight: 2.2, strong: true },
  { re: /\bsuicid(?:e|al)\b|\bself[- ]harm(?:ing)?\b|\boverdos(?:e|ing)\b|\bnoose\b|\bbleed out\b/giu, weight: 1.0 },
  { re: /\b(?:wish|ready|deserve) to die\b|\bdon't (?:want to|see a reason to) (?:be alive|live|keep living)\b|\bnever wake up\b|\bstop existing\b|\bquick way to die\b|\bbetter off (?:if i were )?(?:dead|without me)\b|\bonce i'm gone\b|\bmy last night\b|\bgoodbye letters?\b|\bsuicide note\b/giu, weight: 1.6 },
  { re: /\b(?:jump (?:off|from|in front of)|walk into the sea|crash my car|drive off|slit my|cut (?:my|deeper)|take (?:all|the whole)|whole bottle|enough pills|pills are ready|lethal (?:dose|for)|would kill me|rope ready)\b/giu, weight: 1.2 },
  { re: /\b(?:i|i'm|i've|i am|i have|i keep|i just)\b[^.!?]{0,40}\b(?:cutting|cut|burn(?:ed|ing)?|hurting|hurt|starv(?:e|ing)|punch(?:ing)?|scratch(?:ing)?)\b[^.!?]{0,30}\b(?:myself|my (?:arms|skin|thighs|wrists)|until (?:it|they|my) (?:bleeds?|knuckles))/giu, weight: 1.4 },
  { re: /\b(?:how many|how much|which|what dose|best way|how long|how high|how do i|where can i)\b[^.!?]{0,60}\b(?:die|dying|overdose|bleed|lethal|kill (?:me|myself)|not wake up|cuts|to cut)\b/giu, weight: 1.4 },
];

const INSULT =
  '(?:idiot|moron|imbecile|loser|freak|creep|clown|joke|failure|disgrace|embarrassment|pig|cow|slob|brat|coward|weasel|worm|scum|scumbag|lowlife|trash|garbage|nobody|troll|hag|bitch|cunt|dimwit|fool|hypocrite|liar|fraud|snake|pervert|waste of (?:oxygen|space)|excuse for a (?:human|person)(?: being)?|piece of (?:garbage|trash|shit))';
const ADJ = '(?:stupid|dumb|ugly|fat|pathetic|worthless|useless|disgusting|filthy|brainless|braindead|ignorant|clueless|spineless|miserable|bitter|whiny|smelly|creepy|annoying|sad|lonely|weird|little|total|complete|absolute|fucking|irrelevant|friendless|lying)';

/** Insults and demeaning remarks aimed at the reader (second person). */
export const INTENT_HARASSMENT: Rule[] = [
  { re: new RegExp(`\\b(?:you(?:'re| are)?|ur|u r|your(?:e)?)\\s+(?:such\\s+|so\\s+|a\\s+|an\\s+|the\\s+|just\\s+|nothing but\\s+|too\\s+)*(?:(?:${ADJ})[\\s,]+(?:and\\s+)?)*(?:${INSULT}|${ADJ})\\b`, 'giu'), weight: 1.6 },
  { re: new RegExp(`\\b(?:hey|shut up|go away|get lost)\\b[,\\s]+(?:you\\s+)?(?:${ADJ}\\s+)*(?:${INSULT}|ugly|four-eyes)\\b|\\byou\\s+(?:${ADJ}[\\s,]+)+(?:${INSULT}|thing)\\b`, 'giu'), weight: 1.6 },
  { re: /\b(?:nobody|no one|everyone|everybody)\b[^.!?]{0,20}\b(?:likes|wants|cares about|loves?|hates|laughs at|will (?:ever )?(?:love|miss))\b[^.!?]{0,12}\b(?:you|someone as)\b|\byour (?:mother|mom|parents) should have\b|\byou(?:'ll| will) die alone\b|\bdelete your account\b|\bkill yourself\b|\bkys\b|\bgo (?:die|jump in a lake|cry to your)\b/giu, weight: 1.6 },
  { re: /\bshut (?:up|your (?:\w+ )?mouth)\b|\bstop (?:talking|posting|eating)\b|\bget a life\b|\byou (?:look|smell|eat) like\b|\b(?:the iq|dumber than|too stupid to|as stupid as you)\b|\byour (?:face|voice|writing|work) (?:looks|is)\b/giu, weight: 0.9 },
];

/** Sexual solicitation and explicit description (beside obscenity's words, moderation.lexicon.ts). */
export const INTENT_SEXUAL: Rule[] = [
  { re: /\b(?:nudes?|naked|nudity|horny|threesome|orgy|hook ?ups?|hook up|sexting|sext|nipples?|thong|get laid|fuck buddy|one-night stand|strip ?tease|strip(?:per)? show|strip for me|undress(?:ing)?|moans?|jerk(?:ing)? off|finger(?:ing)? (?:myself|herself|you)|went down on|sit on my face|escorts?|cam girls?|onlyfans|dirty talk|erotic|sexy|explicit|x-rated|hardcore|uncensored|sugar daddy|in bed|happy ending|bend you over|take you|rode him|both finished|so wet|have your way with me|spread your legs)\b/giu, weight: 0.9 },
  { re: /\b(?:send|show|see|trade|rate|exchange)\b[^.!?]{0,20}\b(?:nudes?|naked|pics?|dick pic|boobs|tits|body)\b/giu, weight: 0.8 },
];

/** Spam signals beyond moderation.lexicon.ts SPAM_RULES: money offers, scams, fake followers. */
export const INTENT_SPAM: Rule[] = [
  { re: /\b(?:make|making|earn|earning|get paid|paid)\b[^.!?]{0,40}(?:money|\$\s?\d|cash|income|a day|per day|a week|from home|from your phone)|\bpassive income\b|\bweird trick\b|\bquit your job\b|\bforex\b|\bcrypto (?:tips|airdrop|signals)\b|\b\d+x (?:coins|returns)\b|\bguaranteed (?:returns|profit)\b|\bmiracle\b|\bsecret (?:millionaires|banks|doctors|the rich)\b|\b(?:doctors|banks) hate\b|\blowest rates? ever\b|\bfor the first \d+ people\b|\b(?:daily|huge) (?:returns|profits)\b/giu, weight: 1.0 },
  { re: /\b(?:free (?:followers|likes|views|robux|v-bucks|gift cards?|spins|ringtones|crypto|money)|follow back|buy (?:cheap )?(?:followers|likes|views)|dating site|lonely (?:women|singles)|hot singles|meet rich singles|degree in \d+ (?:days|weeks)|your computer is infected|call this number|i am a prince|transfer(?:ring)? \$|unclaimed (?:package|prize)|lucky visitor|selected for|pre-approved|no credit check|bad credit ok|verify your (?:bank|account|apple id)|will be (?:closed|locked)|payment failed|update your card)\b/giu, weight: 0.6 },
];

/** Scam and fraud cues: pressure, impersonated authorities, advance-fee stories, too-good offers. */
export const INTENT_SCAM: Rule[] = [
  { re: /\b(?:urgent|immediately|avoid arrest|compromised|confirm your (?:pin|password|identity|details)|pay (?:the|a small) fee|customs dut(?:y|ies)|on hold|international lottery|won the lottery|deceased (?:client|relative)|left you \$|inheritance|next of kin|recover your (?:lost )?(?:crypto|funds)|on whatsapp|dm me|link in (?:my )?bio|no questions asked|proven system|positions filling fast|limited (?:stock|seats|spots)|hot deal|melt (?:belly )?fat|celebrities use|anti-aging|instant(?:ly)? (?:approval|offer|followers)|turn \$\d[\d,]* into)\b/giu, weight: 0.6 },
  { re: /\$\s?\d[\d,.]*\s*(?:k\b|million|thousand)?[^.!?]{0,30}\b(?:(?:in|within) (?:a|one|\d+) (?:hour|day|week|month)s?|a (?:day|week|month)|per (?:hour|day|week|month)|guaranteed)\b/giu, weight: 0.8 },
];

/** A group named with a dehumanising, inferiorising or exclusionary statement (beside moderation.lexicon.ts HATE_RULES). */
const GROUP =
  "(?:immigrants?|migrants?|refugees?|foreigners?|muslims?|jews?|jewish people|christians?|hindus?|sikhs?|atheists?|blacks?|black people|whites?|white people|asians?|arabs?|mexicans?|africans?|indians?|chinese(?: people)?|gays?|gay people|lesbians?|homosexuals?|homosexuality|gay marriage|trans(?:gender)? (?:people|women|men)|women|girls|disabled (?:people|kids)|gypsies|roma(?: people)?|old people|those people|these (?:people|foreigners)|those (?:arabs|muslims)|the (?:white )?race|the muslims)";
/** Group names, which the classifier reads as "people" (moderation.ts): it learns what is said about a
 *  group, not which groups appear in hateful examples (identity-term masking against that bias). */
export const GROUP_NAME = new RegExp(`\\b${GROUP}\\b`, 'giu');

export const INTENT_HATE: Rule[] = [
  { re: new RegExp(`\\b${GROUP}\\s+(?:are|is|r)\\s+(?:all\\s+|just\\s+|naturally\\s+|only\\s+|not\\s+|too\\s+|less\\s+|born\\s+|a\\s+|an\\s+|the\\s+)*(?:\\w+\\s+){0,3}?(?:animals|apes|vermin|subhuman|parasites|scum|inferior|filth|filthy|rats|cockroaches|savages|disease|plague|trash|garbage|evil|terrorists?|criminals?|rapists?|thieves|thief|sneaky|dirty|lazy|primitive|violent|greedy|liars?|freaks|perverts|degenerates|groomers|predators|for perverts|a mental illness|an? abomination|a cancer|a virus|a burden|stupid|less intelligent|superior|mentally ill|soulless|backwards|human|thugs|brainwashed|men in dresses|disgusting)\\b`, 'giu'), weight: 1.8 },
  // what a group "should" suffer or lose ("should be deported", "should not exist"), not what it should have
  { re: new RegExp(`\\b${GROUP}\\s+(?:should|must|need to|deserve to)\\s+(?:all\\s+)?(?:be\\s+(?:\\w+\\s+)?(?:banned|deported|killed|shot|gassed|exterminated|wiped out|thrown|locked up|sterilised|removed|sent back|cured|jailed|imprisoned|kept out)|die|burn|suffer|go back|leave|not (?:exist|be allowed|have|vote))\\b`, 'giu'), weight: 1.4 },
  { re: new RegExp(`\\b${GROUP}\\s+(?:belong (?:in|to) (?:the|a)|can never|shouldn't (?:exist|be allowed)|are breeding|are invading|control the|run the|eat dogs|spread disease)\\b`, 'giu'), weight: 1.4 },
  { re: new RegExp(`\\b(?:ban|deport|send|throw|round up|cleanse|sterilise|gas|lock up|burn)\\s+(?:all\\s+)?(?:the\\s+)?(?:them|${GROUP})\\b|\\b(?:back to africa|where they belong|not humans?|subhumans?|white power|the kitchen)\\b`, 'giu'), weight: 1.4 },
];

// Contexts that lower the rule scores: the words are there, the intent is not.
export const CONTEXT_TECHNICAL =
  /\bkill\s+-\d+\b|\b(?:pkill|killall|docker kill|sigkill|oom)\b|\b(?:process(?:es)?|daemon|container|thread|terminal|server|query|script|function|bug|deployment|branch|database|instance|packets?|config|replicas?|migration|firewall|load balancer|kill switch|scanner|vulnerabilit(?:y|ies)|dependency|garbage collector|input|loop|null)\b/iu;
export const CONTEXT_REPORTING =
  /\b(?:police|officials?|reporters?|witnesses|prosecutors|the court|the jury|the trial|the report|according to|the article|the study|researchers|historians|the documentary|the museum|survivors?|victim's|local news|news|sentenced|condemned|investigating|arrested|activists|charity reports|a new law|described|said that|told police)\b/iu;
export const CONTEXT_CLINICAL =
  /\b(?:patients?|liver|(?:stated |recommended )?dose|medication|medicine|doctor|clinic|nurse|surgeon|gyn(?:a)?ecologist|pharmacist|therapist|psychiatry|screening|symptoms?|exams?|anatomy|lecture|reproductive|menopause|cancer|tumou?r|ultrasound|hiv|infections?|contraception|consent|sex education|puberty|breastfeeding|erectile|prostate|dressing|crisis line|help is available|you are not alone|signs that|talk to your doctor|treatable|coping)\b/iu;
export const CONTEXT_FICTION =
  /\b(?:novel|film|movie|game|my character|chess|villain|hamlet|the band|album|stage|comedian|meme|boxer|striker|quarterback|hunters?|chef|the season|round|audition|the final|workout|haha|lol|killed it|slayed|could murder|dying of laughter|break a leg)\b/iu;
/** Talking about spam or scams (warning, reporting, filtering them) rather than sending them: lowers spam's
 *  rule and classifier scores as the contexts above lower the others. */
export const CONTEXT_ABOUT_SPAM =
  /\b(?:spam (?:folder|filter|emails?|texts?|calls?|messages?|adverts?)|(?:email|mail|message) filters?|(?:scam|fake|fraudulent|phishing) (?:calls?|emails?|texts?|messages?|adverts?|ads|invoices?|links?|websites?)|phishing|scammers|fraudsters|beware of|warned (?:about|that)|(?:police|the regulator|the bank) (?:warned|urged|said)|never (?:pay|share|give)|how (?:do|can) i (?:stop|block|report)|pretend(?:ing)? to be|claiming to be)\b/iu;
/** Quoting or asking about a harmful text (reporting it) rather than saying it. */
export const CONTEXT_QUOTING = /\b(?:called me|reported it|report a message|i blocked|why did you call|the post said|someone called|spam filter|is it spam|the word '|history of the word)\b|["“].{3,80}["”]/iu;
