/**
 * Passwords (and password stems) that head every published breach list, plus the Spanish ones and
 * the words of this product. The spec's composition rules (upper and lower case, a digit, a
 * special character) already refuse the raw forms, so what matters here is the stem people dress
 * up to pass them: "Password1!", "P@ssw0rd2024", "Barcelona10#", "Aa123456!". See
 * `isCommonPassword` for how a password is reduced to its stems.
 */
const COMMON_STEMS = `
123456 1234567 12345678 123456789 1234567890 0123456789 987654321 9876543210 654321 123123 123321
112233 121212 123654 147258 147258369 159753 159357 123qwe 1q2w3e 1q2w3e4r 1q2w3e4r5t 1qaz2wsx
1qazxsw2 zaq12wsx zaq1xsw2 q1w2e3r4 qwe123 111111 1111111 11111111 000000 00000000 222222 333333
444444 555555 666666 777777 888888 999999 101010 131313 202020 212121 696969 7777777 1010 2000
2020 2021 2022 2023 2024 2025 2026 1234 12345 4321 1111 0000 5555
password passwords passw0rd password1 password12 password123 pass pass123 passwd passpass
passport contrasena contraseña clave miclave micontrasena secreto secret
qwerty qwertyu qwertyui qwertyuiop qwertz azerty asdf asdfg asdfgh asdfghjkl asdfghjk zxcv zxcvb
zxcvbn zxcvbnm qazwsx qazwsxedc wasd qwe asd zxc poiuyt mnbvcx lkjhgf
abc abcd abcde abcdef abcdefg abcdefgh abc123 abcd1234 aaa aaaa aaaaaa aaaaaaaa abab ababab
admin administrator administrador root user usuario guest invitado test tester testing prueba
demo default login acceso access master welcome bienvenido bienvenida changeme cambiame letmein
iloveyou iloveu loveyou lovely love lover amor amorcito miamor mivida teamo teamomucho tequiero
tequieromucho cariño carino corazon corazón besos beso
hello hola holahola holamundo hellohello helloworld adios
monkey dragon football baseball basketball soccer hockey tennis golf master shadow sunshine princess
princesa superman batman spiderman ironman pokemon pikachu starwars matrix ninja killer hunter
trustno1 whatever freedom mustang jordan jordan23 michael jennifer charlie robert thomas daniel
andrew joshua jessica ashley amanda nicole michelle hannah taylor jasmine maggie buster ginger
tigger pepper cookie chocolate chocolat cheese banana orange apple summer winter autumn spring
flower flowers butterfly mariposa estrella sol luna cielo angel angela angelito diablo demonio
dios jesus jesucristo cristo maria mariajose josemaria familia family friends amigos amigas
hermano hermana mama mamá papa papá mimama mipapa mihijo mihija hijos bebe bebé
perro perrito gato gatito gatita mascota tigre leon león lobo oso osito pantera
barcelona barca fcbarcelona realmadrid madrid hala halamadrid atletico atleti atm sevilla betis
valencia espana españa spain futbol fútbol futbolista messi cristiano ronaldo cr7 neymar
mbappe iniesta ramos casillas nadal gasol alonso fernando
antonio manuel jose josé francisco juan javier david daniel carlos jesus alejandro miguel rafael
pedro pablo sergio fernando jorge luis alberto alvaro álvaro adrian adrián diego raul raúl
enrique ramon ramón vicente andres andrés joaquin joaquín santiago victor víctor eduardo ivan
iván mario ruben rubén oscar óscar marcos hugo lucas martin martín
carmen josefa isabel ana laura cristina marta lucia lucía paula elena sara sofia sofía raquel
pilar dolores rosa rosario mercedes beatriz nuria silvia irene patricia andrea julia alba claudia
marina noelia natalia rocio rocío eva teresa alicia sandra monica mónica
entreno entrena entrenar entrenamiento entrenador gimnasio gym gymbro gymsis fitness crossfit
deporte deportes musculo músculo musculación musculacion pesas proteina proteína running runner
correr cardio workout training trainer bodybuilding culturismo powerlifting yoga pilates spinning
calistenia boxeo boxing
internet computer ordenador windows google facebook instagram whatsapp tiktok twitter youtube
netflix spotify amazon apple iphone samsung android linux
secreto1 123abc abc12345 qwerty123 qwerty1 password2 welcome1 admin123 root123
correcthorsebatterystaple
`;

const COMMON = new Set(COMMON_STEMS.split(/\s+/).filter(Boolean));

const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '@': 'a',
  $: 's',
};

const unleet = (value: string) => value.replace(/[0134578@$]/g, (char) => LEET[char] ?? char);
const stripTrailing = (value: string) => value.replace(/[^\p{L}]+$/u, '');
const stripEdges = (value: string) => stripTrailing(value).replace(/^[^\p{L}]+/u, '');

/**
 * True when a password is a common one or a common stem dressed up: the whole password, the
 * password without its trailing or surrounding digits and symbols, its letters alone, each with
 * leetspeak undone, and the digits of a password with almost no letters ("Aa123456!").
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.normalize('NFKC').toLowerCase();
  const letters = lower.replace(/[^\p{L}]/gu, '');
  const digits = lower.replace(/\D/g, '');
  const stems = [lower, stripTrailing(lower), stripEdges(lower), letters];
  for (const stem of [...stems]) {
    stems.push(unleet(stem), stripEdges(unleet(stem)));
  }
  if (letters.length <= 3 && digits.length >= 4) stems.push(digits);
  return stems.some((stem) => stem.length >= 3 && COMMON.has(stem));
}
