/*
 * lexicon.c: the small hand lexicon, for what a catalog's data cannot
 * say by itself: which words of English, Spanish, French, German and
 * Portuguese name a mood, an activity, an occasion or a genre, and what
 * each means in a catalog's terms: tag words to look for, categories
 * to keep to or to prefer, and audio properties ("sad" -> low valence,
 * "workout" -> high energy and tempo).  kb.c grounds every entry in a
 * catalog's own vocabulary when it loads: a tag word the catalog never
 * uses, a category it does not have and a column it lacks drop out, so
 * the same table serves music, films or anything else.
 *
 * Words are folded as rec_norm() folds them (lowercase, no accents);
 * a phrase is words separated by spaces; '|' separates alternatives.
 */
#include <string.h>

#include "converse.h"

#define N(col, op, v) { col, op, v }
#define NONE { NULL, NULL, 0 }

const struct rec_concept rec_concepts[] = {
	/* moods */
	{ "sad", REC_FACET_MOOD,
	  "sad|sadder|saddest|sadness|melancholic|melancholy|gloomy|"
	  "depressing|"
	  "depressed|depression|depresion|"
	  "heartbreak|heartbroken|feeling blue|feeling down|cry|crying|"
	  "heartache|broken heart|breakup|breaking up|broke up|"
	  "triste|tristes|tristeza|melancolico|melancolica|traurig|traurige|"
	  "trauriger|trauriges|traurigen|trist|"
	  "tristesse|melancolique|deprime|deprimido|deprimida",
	  "sad|melancholic|melancholy|depressing|heartbreak|emotional|"
	  "melancholia|sad songs|breakup|break up|heartache", NULL, NULL, 0,
	  { N("valence", "<=", 0.35), NONE, NONE }, NULL },
	{ "happy", REC_FACET_MOOD,
	  "happy|happier|happiest|happiness|cheerful|cheerier|joyful|joy|"
	  "positive|"
	  "good mood|more upbeat|"
	  "lift my mood|cheer me up|alegre|alegres|feliz|felices|felicidad|"
	  "heureux|heureuse|joyeux|joyeuse|gai|frohlich|glucklich|"
	  "gute laune|lustig|contente",
	  "happy|feel good|uplifting|cheerful|fun|good mood|positive", NULL,
	  NULL, 0, { N("valence", ">=", 0.6), NONE, NONE }, NULL },
	{ "upbeat", REC_FACET_MOOD,
	  "upbeat|up beat|lively|animado|animada|animados|entrainant|entrainante|"
	  "schwungvoll|peppy|bouncy",
	  "upbeat|energetic|happy|fun|party", NULL, NULL, 0,
	  { N("valence", ">=", 0.6), NONE, NONE }, NULL },
	{ "energetic", REC_FACET_MOOD,
	  "energetic|more energetic|energy|intense|louder|loud|powerful|"
	  "hype|hyped|pumped|livelier|pump up|pumped up|pregame|pre game|"
	  "game day|pump me up|pumping|energico|energica|energetico|energetica|"
	  "energique|energiegeladen|intensa|intenso",
	  "energetic|energy|powerful|intense|hard|pump up", NULL, NULL, 0,
	  { N("energy", ">=", 0.7), NONE, NONE }, NULL },
	{ "calm", REC_FACET_MOOD,
	  "calm|calmer|chill|chiller|chilled|chillout|chill out|relax|"
	  "relaxing|relaxed|mellow|mellower|quiet|quieter|soft|softer|"
	  "peaceful|soothing|gentle|laid back|unwind|rainy|rainy day|"
	  "lazy sunday|sunday morning|lazy afternoon|cozy|cosy|"
	  "tranquilo|tranquila|tranquilos|calma|calme|calmes|doux|douce|"
	  "apaisant|apaisante|ruhig|ruhige|entspannt|entspannend|"
	  "entspannung|relajante|relajantes|relajar|relaxante|tranquille|"
	  "suave|suaves|sereno|serena",
	  "chill|chillout|relax|relaxing|mellow|calm|ambient|easy listening|"
	  "soft|chill out|chillhop|lounge", NULL, NULL, 0,
	  { N("energy", "<=", 0.45), NONE, NONE }, NULL },
	{ "angry", REC_FACET_MOOD,
	  "angry|angrier|anger|aggressive|aggression|furious|rage|raging|"
	  "blow off steam|let off steam|blow off some steam|"
	  "let off some steam|pissed off|enojado|enojada|enfadado|enfadada|"
	  "rabia|furia|en colere|colere|rageux|wut|wutend|agressiv|raiva|"
	  "irritado",
	  "aggressive|angry|rage|hardcore|metalcore|metal|heavy metal|"
	  "punk|hard rock|nu metal|thrash metal|intense", NULL, NULL, 0,
	  { N("energy", ">=", 0.8), N("valence", "<=", 0.6), NONE }, NULL },
	{ "dark", REC_FACET_MOOD,
	  "dark|darker|gritty|bleak|sinister|oscuro|oscura|sombre|sombres|"
	  "dunkel|dustere|sombrio",
	  "dark|atmospheric|gritty|bleak|noir|disturbing", NULL, NULL, 0,
	  { N("valence", "<=", 0.35), NONE, NONE }, NULL },
	{ "light", REC_FACET_MOOD,
	  "light|lighter|lighthearted|light hearted|fun|silly|ligero|ligera|"
	  "leger|legere|leicht|heiter",
	  "light|fun|feel good|funny|lighthearted|family", NULL,
	  "comedy|adventure|children|animation", 0,
	  { N("valence", ">=", 0.5), NONE, NONE }, NULL },
	{ "romantic", REC_FACET_MOOD,
	  "romantic|romance|love songs|love song|in love|wedding|weddings|"
	  "anniversary|valentine|valentines|date night|romantico|romantica|"
	  "romanticas|romanticos|romantique|romantiques|amour|liebe|"
	  "romantisch|boda|bodas|mariage|hochzeit|casamento|amor|sexy|"
	  "sensual|intimate|love making|lovemaking|slow jams|sex|seductive|"
	  "slow dance|slow dancing|slow dances|romcom|romcoms|rom com|"
	  "rom coms",
	  "love|romantic|love songs|wedding|ballad|ballads|romance|soul|"
	  "love song", "romance", NULL, 1, { NONE, NONE, NONE }, NULL },
	{ "acoustic", REC_FACET_MOOD,
	  "acoustic|unplugged|acustico|acustica|acoustique|akustisch",
	  "acoustic|unplugged|folk|singer-songwriter|acoustic guitar", NULL,
	  NULL, 0, { N("acousticness", ">=", 0.5), NONE, NONE }, NULL },
	{ "instrumental", REC_FACET_MOOD,
	  "instrumental|instrumentals|no vocals|without vocals|no lyrics|"
	  "without lyrics|no singing|without singing|no voices|"
	  "sin letra|sin voz|sans paroles|ohne gesang|ohne text",
	  "instrumental|instrumentals|post-rock|ambient|classical|piano",
	  NULL, NULL, 0, { N("instrumentalness", ">=", 0.5), NONE, NONE }, NULL },
	{ "emotional", REC_FACET_MOOD,
	  "emotional|moving|touching|reflect|reflective|"
	  "introspective|emotivo|emotiva|emouvant|emotionale",
	  "emotional|atmospheric|beautiful|ambient|meditation|introspective|"
	  "melancholic", NULL, NULL, 0, { NONE, NONE, NONE }, NULL },
	{ "feel-good", REC_FACET_MOOD,
	  "feel good|feelgood|feel-good|heartwarming|heart warming|"
	  "uplifting|wholesome|bad day|inspiring|inspirational|hopeful|"
	  "optimistic|optimista|optimiste|optimistisch",
	  "feel-good|feel good|heartwarming|uplifting|inspirational|"
	  "inspiring|happy", NULL, "comedy", 0,
	  { N("valence", ">=", 0.6), NONE, NONE }, NULL },
	/* activities and occasions */
	{ "workout", REC_FACET_ACTIVITY,
	  "workout|work out|working out|gym|exercise|exercising|training|"
	  "run|running|runs|jog|jogging|cardio|lifting|fitness|motivation|"
	  "motivating|motivational|motivated|pump me up|get going|hype me|"
	  "entrenar|entrenamiento|gimnasio|correr|"
	  "ejercicio|deporte|courir|musculation|sport|laufen|joggen|"
	  "treino|academia",
	  "workout|gym|running|motivation|power|energetic|pump up|cardio|"
	  "training|fitness|beast mode", NULL, NULL, 0,
	  { N("energy", ">", 0.7), N("tempo", ">", 118), NONE }, NULL },
	{ "party", REC_FACET_ACTIVITY,
	  "party|parties|dance party|dance|dancing|danceable|club|clubbing|"
	  "fiesta|fiestas|bailar|baile|fete|soiree|danser|tanzen|feiern|"
	  "festa|dancar|jump around|tanz|sleepover|sleep over|"
	  "slumber party|pijamada|celebrate|celebrating|celebration",
	  "party|dance|club|dancefloor|disco|house|party music|dance pop",
	  NULL, NULL, 1, { N("danceability", ">", 0.7), NONE, NONE }, NULL },
	{ "sleep", REC_FACET_ACTIVITY,
	  "sleep|sleeping|asleep|bedtime|fall asleep|fall asleep at night|"
	  "asleep at night|sleep at night|sleeping at night|dormir|schlafen|"
	  "einschlafen|sommeil|dormi|nap",
	  "sleep|ambient|calm|relax|piano|lullaby|relaxing|soft", NULL, NULL,
	  1, { N("energy", "<", 0.4), NONE, NONE }, NULL },
	{ "focus", REC_FACET_ACTIVITY,
	  "focus|focused|concentrate|concentration|study|studying|coding|"
	  "programming|homework|reading|while working|at work|for work|"
	  "while i work|while we work|when i work|for working|work music|"
	  "estudiar|trabajar|concentrarse|concentracion|etudier|travailler|"
	  "lernen|arbeiten|konzentration|estudar",
	  "instrumental|ambient|lo-fi|lofi|study|focus|classical|piano|"
	  "chillhop|post-rock|concentration", NULL, NULL, 0,
	  { N("instrumentalness", ">=", 0.5), NONE, NONE }, NULL },
	{ "meditation", REC_FACET_ACTIVITY,
	  "meditate|meditating|meditation|yoga|mindfulness|mindful|zen|spa|"
	  "meditar|meditacion|meditacao|meditieren|mediter",
	  "meditation|ambient|new age|relaxation|yoga|spa|zen|calm|"
	  "relaxing", NULL, NULL, 0,
	  { N("energy", "<=", 0.35), NONE, NONE }, NULL },
	{ "driving", REC_FACET_ACTIVITY,
	  "driving|drive|road trip|roadtrip|in the car|in my car|in our car|"
	  "traffic|car ride|"
	  "viaje|carretera|conducir|manejar|route|voiture|autofahren|"
	  "autobahn|dirigir|estrada",
	  "driving|road trip|roadtrip|summer|rock|classic rock", NULL, NULL, 0,
	  { N("energy", ">=", 0.6), NONE, NONE }, NULL },
	{ "chores", REC_FACET_ACTIVITY,
	  "chores|cleaning|housework|cooking|baking|kitchen|cook|clean the "
	  "house|cleaning the house|cleaning house|clean my house|cleaning my "
	  "house|house cleaning|housecleaning|"
	  "errands|running errands|run errands|limpiar|cocinar|menage|"
	  "cuisine|putzen|kochen",
	  "happy|fun|feel good|upbeat|pop|party|summer", NULL, NULL, 0,
	  { N("valence", ">=", 0.55), NONE, NONE }, NULL },
	{ "outdoors", REC_FACET_ACTIVITY,
	  "hiking|hike|walking|walk|outdoors|outdoor|nature|camping|"
	  "senderismo|caminar|randonnee|wandern",
	  "folk|indie|acoustic|indie folk|americana|singer-songwriter|"
	  "country", NULL, NULL, 0, { N("energy", ">=", 0.4), NONE, NONE }, NULL },
	{ "night", REC_FACET_ACTIVITY,
	  "night|late night|late at night|midnight|evening|nighttime|noche|"
	  "nuit|nacht",
	  "chill|night|late night|smooth|r&b|soul|ambient|chillout|"
	  "downtempo|trip-hop", NULL, NULL, 0,
	  { N("energy", "<=", 0.65), NONE, NONE }, NULL },
	{ "gaming", REC_FACET_ACTIVITY,
	  "gaming|video games|video game|game night|gameboard|board games|"
	  "games|jugar|jeux",
	  "electronic|video game music|soundtrack|chiptune|edm|dubstep",
	  NULL, NULL, 0, { N("energy", ">=", 0.6), NONE, NONE }, NULL },
	{ "black and white", REC_FACET_ERA,
	  "black and white|black-and-white|b&w|blanco y negro|"
	  "en blanco y negro|noir et blanc|en noir et blanc|schwarzweiss|"
	  "schwarz weiss|preto e branco",
	  "black and white|b&w|film noir", NULL, NULL, 0,
	  { N("year", "<", 1965), NONE, NONE }, NULL },
	{ "nostalgia", REC_FACET_ERA,
	  "nostalgia|nostalgic|throwback|throwbacks|good old days|retro",
	  "oldies|80s|90s|70s|classic rock|classic|retro", NULL, NULL, 0,
	  { N("year", "<", 2005), NONE, NONE }, NULL },
	{ "christmas", REC_FACET_THEME,
	  "christmas|xmas|navidad|navidena|navidenas|noel|weihnachten|"
	  "weihnacht|natal|holiday season",
	  "christmas|xmas|holiday|christmas music|christmas songs", NULL,
	  NULL, 1, { NONE, NONE, NONE }, NULL },
	/* occasions a title says ("Happy Birthday", "... [Karaoke
	 * Version]", "Lullabies and Nursery Rhymes") */
	{ "birthday", REC_FACET_THEME,
	  "birthday|bday|cumpleanos|anniversaire|geburtstag|aniversario",
	  "birthday|party|happy birthday", NULL, NULL, 1,
	  { NONE, NONE, NONE }, NULL },
	{ "karaoke", REC_FACET_ACTIVITY,
	  "karaoke|sing along|singalong|sing-along|sing a long|cantar|"
	  "chanter|singen",
	  "karaoke|sing along|singalong|pop", NULL, NULL, 1,
	  { NONE, NONE, NONE }, NULL },
	{ "lullaby", REC_FACET_THEME,
	  "lullaby|lullabies|nursery rhyme|nursery rhymes|cancion de cuna|"
	  "nanas|berceuse|berceuses|comptine|comptines|wiegenlied|"
	  "kinderlieder|cantiga de ninar",
	  "lullaby|nursery rhymes|children|kids|baby", NULL, NULL, 1,
	  { NONE, NONE, NONE }, NULL },
	{ "summer", REC_FACET_THEME,
	  "summer|beach|sunny|verano|playa|ete|plage|sommer|strand|verao",
	  "summer|beach|sunny|tropical|reggae", NULL, NULL, 1,
	  { N("valence", ">=", 0.5), NONE, NONE }, NULL },
	/* film genres and what people call them */
	{ "funny", REC_FACET_GENRE,
	  "funny|funnier|funniest|comedy|comedies|comedic|hilarious|humor|"
	  "humour|laugh|"
	  "laughs|comedia|comedias|comedie|comedies|komodie|komodien|"
	  "lustige|divertida|divertidas|graciosa|graciosas|engracado|"
	  "comico|comica|comici|comiche|commedia|commedie|divertente",
	  "funny|hilarious|comedy|humor|humorous|satire", "comedy", NULL, 0,
	  { NONE, NONE, NONE }, NULL },
	{ "scary", REC_FACET_GENRE,
	  "scary|scarier|scariest|creepy|creepier|spooky|spookier|"
	  "terrifying|frightening|miedo|peur|gruselig|"
	  "grusel|medo|scare|scared",
	  "scary|creepy|horror|atmospheric|suspense|tense", "horror|thriller",
	  NULL, 0, { NONE, NONE, NONE }, NULL },
	{ "horror", REC_FACET_GENRE,
	  "horror|horrors|horreur|terror|terreur|epouvante|terrifiante",
	  "horror|scary|creepy", "horror", NULL, 0, { NONE, NONE, NONE }, NULL },
	{ "animated", REC_FACET_GENRE,
	  "animated|animation|cartoon|cartoons|anime|pixar|animacion|"
	  "animados|animadas|anime|dessin anime|dessins animes|zeichentrick|"
	  "animiert|desenho animado",
	  "animation|pixar|disney|anime|animated", "animation", NULL, 0,
	  { NONE, NONE, NONE }, "pixar|anime" },
	{ "kids", REC_FACET_AUDIENCE,
	  "kids|kid|children|child|toddler|toddlers|ninos|nino|infantil|"
	  "infantiles|enfants|enfant|kinder|kinderfilm|criancas|crianca",
	  "children|kids|family|disney|pixar", NULL,
	  "children|animation", 0, { NONE, NONE, NONE }, NULL },
	{ "family", REC_FACET_AUDIENCE,
	  "family|families|whole family|familia|famille|familie|familiar",
	  "family|children|disney|pixar|heartwarming", NULL,
	  "children|animation", 0, { NONE, NONE, NONE }, NULL },
	{ "sci-fi", REC_FACET_GENRE,
	  "sci-fi|sci fi|scifi|science fiction|ciencia ficcion|"
	  "science-fiction|sciencefiction|futuristic",
	  "sci-fi|science fiction|space|futuristic|dystopia", "sci-fi", NULL,
	  0, { NONE, NONE, NONE }, NULL },
	{ "action", REC_FACET_GENRE, "action|accion|action-packed|acao|azione",
	  "action|explosions|fight", "action", NULL, 0, { NONE, NONE, NONE }, NULL },
	{ "thriller", REC_FACET_GENRE,
	  "thriller|thrillers|suspense|suspenseful|suspenso|suspense",
	  "suspense|tense|thriller", "thriller", NULL, 0,
	  { NONE, NONE, NONE }, NULL },
	{ "drama", REC_FACET_GENRE, "drama|dramas|dramatic|dramatico",
	  "drama|dramatic", "drama", NULL, 0, { NONE, NONE, NONE }, NULL },
	{ "war", REC_FACET_GENRE,
	  "war|wars|military|guerra|guerre|krieg|kriegs|kriegsfilm|"
	  "weltkrieg|zweiten weltkrieg",
	  "war|military|world war ii|ww2|vietnam", "war", NULL, 0,
	  { NONE, NONE, NONE }, NULL },
	{ "western", REC_FACET_GENRE, "western|westerns|cowboy|cowboys",
	  "western|cowboys", "western", NULL, 0, { NONE, NONE, NONE }, NULL },
	{ "documentary", REC_FACET_GENRE,
	  "documentary|documentaries|documental|documentales|documentaire|"
	  "documentaires|dokumentation|dokumentarfilm|documentario",
	  "documentary|true story", "documentary", NULL, 0,
	  { NONE, NONE, NONE }, NULL },
	{ "crime", REC_FACET_GENRE,
	  "crime|gangster|gangsters|heist|mafia|mob|crimen|policial",
	  "crime|gangster|heist|mafia", "crime", NULL, 0,
	  { NONE, NONE, NONE }, "heist|gangster|gangsters|mafia|mob" },
	{ "mystery", REC_FACET_GENRE,
	  "mystery|mysteries|whodunit|detective|misterio|mystere",
	  "mystery|detective|twist ending", "mystery", NULL, 0,
	  { NONE, NONE, NONE }, "whodunit|detective" },
	{ "fantasy", REC_FACET_GENRE, "fantasy|fantasia|fantastique|magic",
	  "fantasy|magic", "fantasy", NULL, 0, { NONE, NONE, NONE }, NULL },
	{ "adventure", REC_FACET_GENRE,
	  "adventure|adventures|aventura|aventuras|aventure|abenteuer",
	  "adventure", "adventure", NULL, 0, { NONE, NONE, NONE }, NULL },
	{ "musical", REC_FACET_GENRE, "musical|musicals", "musical",
	  "musical", NULL, 0, { NONE, NONE, NONE }, NULL },
	/* music genres by other names */
	{ "hip hop", REC_FACET_GENRE,
	  "hip hop|hiphop|hip-hop|rap|rapper|rappers|trap|drill|grime|"
	  "old school rap|gangster rap|gangsta rap|gangsta",
	  "hip hop|rap|hip-hop|trap|gangster rap|southern hip hop",
	  "hip hop|rap|hip-hop", NULL, 0, { NONE, NONE, NONE },
	  "trap|drill|grime|gangster rap|gangsta rap|gangsta|old school rap" },
	{ "r&b", REC_FACET_GENRE, "r&b|rnb|r b|r and b|rhythm and blues",
	  "r&b|rnb|soul|neo soul|urban contemporary", "r&b", NULL, 0,
	  { NONE, NONE, NONE }, NULL },
	{ "soul", REC_FACET_GENRE,
	  "soul|soul music|soulful|classic soul|northern soul|"
	  "deep soul|southern soul",
	  "soul|motown|classic soul|northern soul|southern soul|deep soul|"
	  "funk|neo soul|rnb", "soul", NULL, 0, { NONE, NONE, NONE },
	  NULL },
	{ "electronic", REC_FACET_GENRE,
	  "electronic|electronica|electro|edm|electronique|elektronisch|"
	  "elektro|electronico|electronica",
	  "electronic|edm|electro|house|electronica|dance|techno|"
	  "electro house", "edm", NULL, 0, { NONE, NONE, NONE }, NULL },
	{ "classical", REC_FACET_GENRE,
	  "classical|clasica|clasico|classique|klassik|klassisch|classica|"
	  "orchestral|symphony",
	  "classical|orchestral|piano|instrumental|baroque|opera|composer",
	  NULL, NULL, 0, { NONE, NONE, NONE }, NULL },
	{ "country", REC_FACET_GENRE, "country|country music|western music",
	  "country|classic country|americana|bluegrass", "country", NULL, 0,
	  { NONE, NONE, NONE }, NULL },
	{ "afrobeats", REC_FACET_GENRE,
	  "afrobeats|afrobeat|afropop|afro pop|amapiano|afro|naija|"
	  "afrofusion",
	  "afrobeat|afrobeats|afropop|african|amapiano|nigerian|afro pop|"
	  "highlife|azonto", NULL, NULL, 0, { NONE, NONE, NONE }, NULL },
	{ "female vocalists", REC_FACET_THEME,
	  "female artists|female artist|female singers|female singer|"
	  "female vocalists|female vocals|female voices|women singers|"
	  "female rappers|women artists|girl singers",
	  "female vocalists|female vocalist|female vocals", NULL, NULL, 0,
	  { NONE, NONE, NONE }, NULL },
	{ "gospel", REC_FACET_GENRE,
	  "gospel|worship|christian|praise|religious|church",
	  "gospel|christian|worship|ccm|praise|christian rock", NULL, NULL, 0,
	  { NONE, NONE, NONE }, NULL },
	/* languages sung or spoken in, by their names in the five
	 * languages: what the catalog's tags call them, and the categories
	 * of them preferred where the catalog has such ("japanese pop":
	 * j-pop first, not the best known pop) */
	{ "spanish", REC_FACET_THEME,
	  "spanish|in spanish|espanol|espanola|en espanol|castellano|"
	  "hispanic|spanisch|espagnol|en espagnol|espanhol",
	  "latin|spanish|latino|reggaeton|latin pop|espanol|latin hip hop|"
	  "tropical|mexican", NULL, "spanish|latin|latino|espanol", 0,
	  { NONE, NONE, NONE }, NULL },
	{ "french", REC_FACET_THEME,
	  "french|in french|francais|francaise|en francais|franzosisch|"
	  "frances|francesa|en frances",
	  "french|chanson|francais|french pop|variete francaise", NULL,
	  "french|chanson|francais|french pop", 0, { NONE, NONE, NONE },
	  NULL },
	{ "german", REC_FACET_THEME,
	  "german|in german|deutsch|deutsche|deutscher|deutschen|auf deutsch|"
	  "allemand|allemande|aleman|alemana|alemao",
	  "german|deutsch|deutschrap|schlager|german pop|neue deutsche welle",
	  NULL, "german|deutsch|deutschrap|schlager", 0,
	  { NONE, NONE, NONE }, NULL },
	{ "japanese", REC_FACET_THEME,
	  "japanese|japones|japonesa|japonais|japonaise|japanisch",
	  "japanese|j-pop|j-rock|jpop|city pop|anime|japan", NULL,
	  "japanese|j-pop|j-rock|jpop|city pop|japan", 0,
	  { NONE, NONE, NONE }, NULL },
	{ "korean", REC_FACET_THEME,
	  "korean|coreano|coreana|coreen|coreenne|koreanisch",
	  "korean|k-pop|kpop|k-indie|korea", NULL, "korean|k-pop|kpop|korea",
	  0, { NONE, NONE, NONE }, NULL },
	{ "italian", REC_FACET_THEME,
	  "italian|italiano|italiana|italien|italienne|italienisch",
	  "italian|italiano|canzone|italian pop|italo", NULL,
	  "italian|italiano|canzone|italian pop", 0, { NONE, NONE, NONE },
	  NULL },
	{ "portuguese", REC_FACET_THEME,
	  "portuguese|portugues|portuguesa|brazilian|brasileiro|brasileira|"
	  "bresilien|portugais",
	  "brazilian|portuguese|mpb|bossa nova|samba|sertanejo|funk carioca",
	  NULL, "brazilian|portuguese|mpb|bossa nova|samba|sertanejo", 0,
	  { NONE, NONE, NONE }, NULL },
	{ "oldies", REC_FACET_ERA,
	  "oldies|old school|old songs|golden oldies|clasicos|antiguas|"
	  "anciennes|alte",
	  "oldies|60s|70s|classic rock|soul|motown", NULL, NULL, 0,
	  { N("year", "<", 1990), NONE, NONE }, NULL },
	{ NULL, 0, NULL, NULL, NULL, NULL, 0, { NONE, NONE, NONE }, NULL }
};

/* words that carry no meaning of their own in a request, in the five
 * languages: articles, pronouns, "song", "please", ... (folded) */
static const char *const filler[] = {
	"a", "an", "the", "some", "any", "me", "i", "im", "id", "ill", "my",
	"mine", "we", "us", "our", "you", "your", "please", "pls", "plz",
	"give", "find", "show", "play", "want", "wanna", "would", "need",
	"looking", "look", "for", "of", "to", "and", "or", "with", "from",
	"in", "on", "at", "that", "this", "those", "these", "it", "its",
	"is", "are", "be", "been", "being", "was", "were", "am", "something",
	"anything", "stuff", "things", "thing", "music", "songs", "song",
	"tracks", "track", "tunes", "tune", "movies", "movie", "films", "film",
	"flicks", "flick", "items", "ones", "one", "can", "could", "recommend",
	"recommendation", "recommendations", "suggest", "suggestion",
	"suggestions", "get", "put", "too", "very", "really", "just", "also",
	"than", "lately", "listening", "listen", "hear", "watch", "watching",
	"see", "good", "great", "kind", "sort", "type", "types", "vibe",
	"vibes", "feel", "feeling", "mood", "list", "playlist", "playlists",
	"maybe", "thanks", "thank", "hey", "hi", "hello", "so", "what",
	"whats", "have", "got", "all", "much", "bit", "little", "lot", "lots",
	"few", "couple", "there", "here", "make", "makes", "making", "mix",
	"ok", "okay", "yes", "yeah", "yep", "cool", "nice", "wow", "now",
	"instead", "surprise", "random", "whatever", "else", "anyone",
	"pick", "choose", "usual", "today", "tonight", "add", "adding",
	"added", "include", "including", "create", "creating", "perfect",
	"lovely", "awesome", "amazing", "sounds", "sound", "fine", "well",
	"how", "about", "other", "others", "should", "will", "do", "does",
	"did", "let", "lets", "try", "think", "know", "honest", "honestly",
	"enjoy", "may", "might", "excellent", "wonderful", "fantastic",
	"sure", "again", "works", "as", "if", "go", "going", "people",
	"them", "they", "their", "him", "his", "he", "she", "up", "out",
	"into", "such", "around", "tempo", "bpm",
	"which", "who", "where", "when", "why", "then", "thats", "ive",
	"youre", "theyre", "dont", "help", "helps", "able", "great", "day",
	"time", "times", "new", "next", "more", "ready", "buddy", "there",
	"greetings", "morning", "evening", "afternoon", "night", "tonight",
	"weekend", "today", "like", "love", "loved", "liked", "enjoyed",
	"favorite", "favourite", "style", "genre", "genres", "artist",
	"artists", "band", "bands", "singer", "singers", "group", "groups",
	"tv", "show", "shows", "series", "while", "during", "after", "before",
	"im", "lol", "haha", "hmm", "um", "well", "guess", "said", "say",
	"via", "per", "own", "best", "top", "ever", "all time", "time",
	"something", "sth", "put", "together", "curate", "compile",
	"collection", "selection", "bunch", "set", "album", "albums",
	"released", "release", "releases", "came", "come", "made", "out",
	"recorded", "record", "written", "sung", "watched", "listened",
	"but", "pero", "mais", "aber", "mas", "though", "although", "yet",
	"only", "long", "fine", "ok", "alright", "whatever", "matter", "mind",
	"care",
	/* Spanish */
	"el", "la", "los", "las", "un", "una", "unos", "unas", "de", "del",
	"y", "o", "para", "por", "con", "en", "que", "mi", "mis", "me",
	"quiero", "quisiera", "dame", "pon", "ponme", "algo", "alguna",
	"algunas", "algunos", "cancion", "canciones", "musica", "pelicula",
	"peliculas", "temas", "favor", "recomienda", "recomiendame", "hola",
	"gracias", "muy", "mas", "es", "son", "lista",
	/* French */
	"le", "les", "une", "des", "du", "et", "ou", "pour", "avec", "dans",
	"sur", "je", "moi", "veux", "voudrais", "donne", "chanson",
	"chansons", "musique", "morceaux", "morceau", "films", "quelque",
	"chose", "merci", "bonjour", "tres", "plus", "est", "sont", "au",
	"aux",
	/* German */
	"der", "die", "das", "ein", "eine", "einen", "und", "oder", "fur",
	"mit", "von", "zum", "zur", "ich", "mir", "mochte", "will", "gib",
	"lied", "lieder", "musik", "filme", "etwas", "bitte", "danke",
	"hallo", "sehr", "mehr", "ist", "sind", "den", "dem", "des", "einer",
	"einem", "uber", "aus", "im", "am", "auf", "zu", "mich", "mein",
	"meine", "gerne", "gern", "film", "songs", "titel", "etwas",
	/* Portuguese */
	"o", "os", "as", "um", "uma", "uns", "umas", "do", "da", "dos", "das",
	"e", "com", "em", "no", "na", "eu", "quero", "gostaria", "musicas",
	"filmes", "alguma", "obrigado", "obrigada", "ola", "mais",
	"its", "hes", "shes", "theres", "heres", "whos", "wheres",
	/* Italian */
	"il", "lo", "gli", "uno", "di", "degli", "della", "delle", "dei",
	"dello", "per", "che", "vorrei", "canzoni", "qualche", "grazie",
	NULL
};

/* the filler word w is a slip of the hand away from (by test), or NULL */
const char *
rec_lex_filler_near(const char *w, int (*test)(const char *, const char *))
{
	size_t i;

	for (i = 0; filler[i]; i++)
		if (test(w, filler[i]))
			return filler[i];
	return NULL;
}

int
rec_lex_filler(const char *w)
{
	size_t i;

	for (i = 0; filler[i]; i++)
		if (!strcmp(filler[i], w))
			return 1;
	return 0;
}

/* negation, in the five languages: it turns what follows in its clause
 * into a dislike */
static const char *const negation[] = { "not", "no", "without", "except",
	"nothing", "avoid", "hate", "dont", "never", "exclude", "dislike",
	"disliked", "hated", "didnt", "cant", "wont", "nor", "less", "minus", "skip",
	"sin", "nada", "nunca", "sans", "pas", "jamais", "ohne", "nicht",
	"kein", "keine", "keinen", "sem", "nao", "nenhum", NULL };

int
rec_lex_negation(const char *w)
{
	size_t i;

	for (i = 0; negation[i]; i++)
		if (!strcmp(negation[i], w))
			return 1;
	return 0;
}

/* Numbers and decades by name: "nineties", "los 90", "les annees 80",
 * "achtziger".  Returns the decade's first year (1990) or 0. */
int
rec_lex_decade(const char *w)
{
	static const struct {
		const char *w;
		int y;
	} d[] = {
		{ "fifties", 1950 }, { "sixties", 1960 }, { "seventies", 1970 },
		{ "eighties", 1980 }, { "nineties", 1990 },
		{ "noughties", 2000 }, { "aughts", 2000 }, { "tens", 2010 },
		{ "cincuenta", 1950 }, { "sesenta", 1960 }, { "setenta", 1970 },
		{ "ochenta", 1980 }, { "noventa", 1990 }, { "cinquante", 1950 },
		{ "soixante", 1960 }, { "funfziger", 1950 },
		{ "sechziger", 1960 },
		{ "siebziger", 1970 }, { "achtziger", 1980 },
		{ "neunziger", 1990 }, { "oitenta", 1980 }, { "noventa", 1990 },
		{ "cinquenta", 1950 }, { "sessenta", 1960 },
		{ NULL, 0 } };
	size_t i;

	for (i = 0; d[i].w; i++)
		if (!strcmp(d[i].w, w))
			return d[i].y;
	return 0;
}

/* the words of an era said loosely: 1 recent ("latest", "neue"), 2
 * older, else 0 */
int
rec_lex_era_word(const char *w)
{
	static const char *const l[] = { "recent", "latest", "newest", "fresh",
	    "newer", "recientes", "reciente", "recents", "recentes", "aktuelle",
	    "neue", "current", NULL };
	size_t k;

	for (k = 0; l[k]; k++)
		if (!strcmp(l[k], w))
			return 1;
	return !strcmp(w, "older") || !strcmp(w, "old") ? 2 : 0;
}
