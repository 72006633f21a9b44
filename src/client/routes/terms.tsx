import { SUPPORT_EMAIL } from '../features/auth/auth-texts.ts';
import { LegalDocument, type LegalSection } from '../features/auth/legal-document.tsx';

const SECTIONS: readonly LegalSection[] = [
  {
    title: 'Qué es Entreno',
    body: (
      <p>
        Entreno es un servicio para encontrar compañeros de gimnasio y de entrenamiento cerca de ti. Te mostramos
        perfiles con un porcentaje de compatibilidad y la distancia aproximada; si os dais «Entreno» mutuamente, podéis
        hablar por chat y quedar para entrenar.
      </p>
    ),
  },
  {
    title: 'Quién puede usarlo',
    body: (
      <ul>
        <li>Solo personas mayores de 18 años.</li>
        <li>Una cuenta por persona, con tus datos reales y un número de móvil español que puedas verificar.</li>
        <li>Eres responsable de mantener en secreto tu contraseña y de lo que se haga desde tu cuenta.</li>
      </ul>
    ),
  },
  {
    title: 'Cómo tratar a los demás',
    body: (
      <>
        <p>Entreno funciona porque la gente se siente segura. Por eso no está permitido:</p>
        <ul>
          <li>Acosar, amenazar, insultar o discriminar a otras personas.</li>
          <li>Publicar fotos o textos sexuales, violentos o que no sean tuyos.</li>
          <li>Hacerte pasar por otra persona, crear perfiles falsos o usar Entreno para vender o hacer publicidad.</li>
          <li>Intentar averiguar dónde vive o entrena alguien sin su permiso.</li>
        </ul>
        <p>
          Puedes bloquear y denunciar a cualquier perfil. Revisamos las denuncias y podemos suspender o cerrar las
          cuentas que incumplan estas condiciones.
        </p>
      </>
    ),
  },
  {
    title: 'Quedadas y seguridad',
    body: (
      <p>
        Las quedadas son entre vosotros: Entreno no organiza ni supervisa los entrenamientos. Queda la primera vez en un
        lugar público, como tu gimnasio, cuéntale a alguien de confianza con quién has quedado y entrena según tu nivel
        y tu salud.
      </p>
    ),
  },
  {
    title: 'Tu contenido',
    body: (
      <p>
        Tus fotos, tu descripción y tus mensajes siguen siendo tuyos. Nos das permiso para guardarlos y mostrarlos a
        otras personas de Entreno solo para que el servicio funcione, y ese permiso termina cuando los borras o cierras
        tu cuenta.
      </p>
    ),
  },
  {
    title: 'Tu cuenta',
    body: (
      <p>
        Puedes cerrar tu cuenta cuando quieras desde Configuración. Si incumples estas condiciones podemos suspenderla;
        te diremos el motivo y podrás responder escribiéndonos. Podemos cambiar estas condiciones: si el cambio es
        importante, te avisaremos en la app antes de que se aplique.
      </p>
    ),
  },
  {
    title: 'Contacto',
    body: (
      <p>
        Para cualquier duda sobre estas condiciones, escríbenos a{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
      </p>
    ),
  },
];

/** Terms of use, linked from registration and the access screens (spec 000 §2). */
export function TermsPage() {
  return (
    <LegalDocument
      title="Condiciones de uso"
      updated="1 de junio de 2025"
      summary={
        <p>
          En corto: Entreno es para mayores de 18 años que buscan con quién entrenar. Usa tus datos reales, trata a los
          demás con respeto y queda la primera vez en un lugar público. Tu contenido es tuyo y puedes cerrar tu cuenta
          cuando quieras.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
