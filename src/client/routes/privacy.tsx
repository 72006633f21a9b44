import { SUPPORT_EMAIL } from '../features/auth/auth-texts.ts';
import { LegalDocument, type LegalSection } from '../features/auth/legal-document.tsx';

const SECTIONS: readonly LegalSection[] = [
  {
    title: 'Qué datos guardamos',
    body: (
      <ul>
        <li>
          <strong>Cuenta:</strong> nombre y apellidos, email, número de móvil verificado y tu contraseña, guardada solo
          como un resumen cifrado (argon2id) que no permite recuperarla.
        </li>
        <li>
          <strong>Perfil:</strong> lo que decides mostrar: fotos, descripción, fecha de nacimiento (para calcular tu
          edad), gimnasio, deportes, objetivos, nivel y preferencias de búsqueda.
        </li>
        <li>
          <strong>Ubicación aproximada:</strong> al iniciar sesión, si lo permites, leemos tu posición y la redondeamos
          a una cuadrícula de aproximadamente 1 km antes de guardarla. Nunca guardamos tu posición exacta, y a los demás
          solo les mostramos una distancia aproximada (por ejemplo, «A menos de 1 km»).
        </li>
        <li>
          <strong>Mensajes:</strong> los chats con tus entrenamientos (matches), para entregarlos y que puedas leerlos
          en tus dispositivos.
        </li>
        <li>
          <strong>Fotos:</strong> las volvemos a codificar al subirlas y les quitamos los metadatos EXIF y GPS, así que
          no revelan dónde ni con qué se tomaron.
        </li>
        <li>
          <strong>Actividad:</strong> tus «Entreno», rechazos, matches, la racha de días con sesión iniciada y, si las
          activas, las suscripciones a notificaciones push.
        </li>
      </ul>
    ),
  },
  {
    title: 'Para qué los usamos',
    body: (
      <>
        <p>
          Solo para prestar el servicio que nos pides (art. 6.1.b del RGPD): mostrarte perfiles compatibles cerca de ti,
          entregar tus mensajes y notificaciones y mantener tu cuenta segura. Usamos también tu email y tu móvil para
          verificar tu identidad y para recuperar tu contraseña.
        </p>
        <p>No vendemos tus datos ni los usamos para publicidad.</p>
      </>
    ),
  },
  {
    title: 'Quién los ve',
    body: (
      <p>
        Otras personas de Entreno ven tu perfil público, nunca tu email, tu teléfono ni tu ubicación. Tus mensajes solo
        los ven las personas del chat. Trabajamos con proveedores de alojamiento, envío de SMS y correo que tratan los
        datos solo por encargo nuestro y dentro de la Unión Europea o con garantías equivalentes.
      </p>
    ),
  },
  {
    title: 'Cuánto tiempo',
    body: (
      <p>
        Mientras tengas la cuenta. Si la cierras, borramos tu perfil, fotos, mensajes y ubicación; solo conservamos lo
        que la ley nos obligue a guardar, durante el tiempo que nos obligue. Los códigos SMS caducan a los 10 minutos y
        los enlaces para restablecer la contraseña, a la hora.
      </p>
    ),
  },
  {
    title: 'En tu dispositivo',
    body: (
      <p>
        Entreno guarda en tu navegador tu sesión (durante 30 días si marcas «Recuérdame») y una copia de tus
        conversaciones para poder usarla sin conexión. Al cerrar sesión borramos todo eso del navegador.
      </p>
    ),
  },
  {
    title: 'Tus derechos',
    body: (
      <>
        <p>
          Según el Reglamento General de Protección de Datos (RGPD) y la LOPDGDD puedes pedirnos en cualquier momento
          acceso a tus datos, su rectificación, su supresión, la limitación de su tratamiento, su portabilidad y
          oponerte a su tratamiento. Muchas de estas cosas puedes hacerlas tú desde la app (editar el perfil, cerrar la
          cuenta).
        </p>
        <p>
          Si crees que no hemos tratado bien tus datos, puedes reclamar ante la Agencia Española de Protección de Datos
          (aepd.es).
        </p>
      </>
    ),
  },
  {
    title: 'Contacto',
    body: (
      <p>
        Para ejercer tus derechos o preguntar cualquier cosa sobre privacidad, escríbenos a{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. Te responderemos en un plazo máximo de un mes.
      </p>
    ),
  },
];

/** The privacy policy, linked from registration and the access screens (spec 000 §2). */
export function PrivacyPage() {
  return (
    <LegalDocument
      title="Política de privacidad"
      updated="1 de junio de 2025"
      summary={
        <p>
          En corto: guardamos lo necesario para que encuentres con quién entrenar. Tu ubicación se guarda redondeada a
          unos 1 km, tus fotos sin datos EXIF ni GPS, y nadie ve tu email, tu teléfono ni tu posición. No vendemos tus
          datos y puedes pedirnos que los borremos cuando quieras.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
